/* Two things speexdsp's resampler API lacks, done on its own state (src/resample-ext.c). */
#ifndef HARK_RESAMPLE_EXT_H
#define HARK_RESAMPLE_EXT_H
#include <speex/speex_resampler.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Input per output = num / den, den unreduced; the phase carries over. 0, or RESAMPLER_ERR_*. */
int hark_resampler_set_ratio(SpeexResamplerState *st, spx_uint32_t num, spx_uint32_t den);
/* After a reset: the first output falls `frac` (0 <= frac < 1) of an input sample later. */
void hark_resampler_set_phase(SpeexResamplerState *st, double frac);
#ifdef __cplusplus
}
#endif
#endif
