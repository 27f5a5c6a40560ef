/* speexdsp's resample.c, compiled here unchanged, with two functions on its own state beside it.
 *
 * hark sets a ratio such as 16777552/16777216 (a speaker 20 ppm fast) and moves it by fractions of
 * a ppm as the skew is measured. speex_resampler_set_rate_frac reduces the ratio and rescales the
 * phase in 32 bits: with a denominator that fine the rescale overflows (RESAMPLER_ERR_OVERFLOW) as
 * soon as the phase is past 256/den. With the denominator kept as it is, the phase needs no rescale.
 * And a stream that starts between two input samples (the echo's delay is not a whole number of
 * them) needs its first phase set, which the API has no call for. */
#include "resample.c"
#include "resample-ext.h"

int hark_resampler_set_ratio(SpeexResamplerState *st, spx_uint32_t num, spx_uint32_t den)
{
   spx_uint32_t i;
   if (num == 0 || den == 0)
      return RESAMPLER_ERR_INVALID_ARG;
   if (st->num_rate == num && st->den_rate == den)
      return RESAMPLER_ERR_SUCCESS;
   for (i = 0; i < st->nb_channels; i++)
   {
      /* The same fraction of a sample on the new denominator (64-bit: no overflow). */
      unsigned long long p = (unsigned long long)st->samp_frac_num[i] * den / st->den_rate;
      st->samp_frac_num[i] = p >= den ? den - 1 : (spx_uint32_t)p;
   }
   st->num_rate = num;
   st->den_rate = den;
   return update_filter(st);
}

void hark_resampler_set_phase(SpeexResamplerState *st, double frac)
{
   spx_uint32_t i;
   double p = frac < 0 ? 0 : frac * st->den_rate;
   for (i = 0; i < st->nb_channels; i++)
      st->samp_frac_num[i] = p >= st->den_rate ? st->den_rate - 1 : (spx_uint32_t)p;
}
