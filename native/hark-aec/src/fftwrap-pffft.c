/* speexdsp's FFT interface (libspeexdsp/fftwrap.h) on PFFFT, in place of fftwrap.c's smallft branch.
 *
 * Why: speexdsp's own smallft (FFTPACK in plain C) was a third of the echo stage's native time; PFFFT
 * computes the same transform with SSE on x86-64 and NEON on a Pi's Cortex-A72/A76. Sizes PFFFT does
 * not take (a real transform must be a multiple of 32 made of 2, 3 and 5) fall back to smallft, so any
 * frame size the addon accepts still works.
 *
 * The contract kept is smallft's, which mdf.c and preprocess.c are written for:
 *   spx_fft:  out = forward(in) / N, packed [r0, r1, i1, r2, i2, ..., r(N/2)];
 *   spx_ifft: out = backward(in), unscaled, from the same packing.
 * PFFFT's ordered real layout is [r0, r(N/2), r1, i1, ...]: only the Nyquist bin moves. Its buffers
 * must be SIMD-aligned, so each table owns two aligned scratch arrays (speexdsp's pointers carry no
 * such promise). A table is used by one echo or preprocess state at a time, as with smallft's. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <string.h>
#include "arch.h"
#include "os_support.h"
#include "fftwrap.h"
#include "smallft.h"
#include "pffft.h"

struct hark_fft {
  int n;
  PFFFT_Setup *setup; /* NULL: this size goes through smallft */
  float *a, *work;    /* aligned, n floats each */
  struct drft_lookup *small;
};

void *spx_fft_init(int size)
{
  struct hark_fft *t = speex_alloc(sizeof(struct hark_fft));
  t->n = size;
  t->setup = pffft_is_valid_size(size, PFFFT_REAL) ? pffft_new_setup(size, PFFFT_REAL) : NULL;
  if (t->setup) {
    t->a = pffft_aligned_malloc(size * sizeof(float));
    t->work = pffft_aligned_malloc(size * sizeof(float));
  } else {
    t->small = speex_alloc(sizeof(struct drft_lookup));
    spx_drft_init(t->small, size);
  }
  return t;
}

void spx_fft_destroy(void *table)
{
  struct hark_fft *t = table;
  if (t->setup) {
    pffft_destroy_setup(t->setup);
    pffft_aligned_free(t->a);
    pffft_aligned_free(t->work);
  } else {
    spx_drft_clear(t->small);
    speex_free(t->small);
  }
  speex_free(t);
}

void spx_fft(void *table, float *in, float *out)
{
  struct hark_fft *t = table;
  const int n = t->n;
  const float scale = 1.f / n;
  int i;
  if (!t->setup) {
    for (i = 0; i < n; i++) out[i] = scale * in[i];
    spx_drft_forward(t->small, out);
    return;
  }
  for (i = 0; i < n; i++) t->a[i] = scale * in[i];
  pffft_transform_ordered(t->setup, t->a, t->a, t->work, PFFFT_FORWARD);
  out[0] = t->a[0];
  memcpy(out + 1, t->a + 2, (n - 2) * sizeof(float));
  out[n - 1] = t->a[1];
}

void spx_ifft(void *table, float *in, float *out)
{
  struct hark_fft *t = table;
  const int n = t->n;
  if (!t->setup) {
    if (in != out) memcpy(out, in, n * sizeof(float));
    spx_drft_backward(t->small, out);
    return;
  }
  t->a[0] = in[0];
  t->a[1] = in[n - 1];
  memcpy(t->a + 2, in + 1, (n - 2) * sizeof(float));
  pffft_transform_ordered(t->setup, t->a, t->a, t->work, PFFFT_BACKWARD);
  memcpy(out, t->a, n * sizeof(float));
}

void spx_fft_float(void *table, float *in, float *out)
{
  spx_fft(table, in, out);
}

void spx_ifft_float(void *table, float *in, float *out)
{
  spx_ifft(table, in, out);
}
