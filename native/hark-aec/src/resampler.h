// hark-aec's Resampler: speexdsp's resampler (resample.c) at a fractional ratio, one channel.
#pragma once
#include <napi.h>

void InitResampler(Napi::Env env, Napi::Object exports);
