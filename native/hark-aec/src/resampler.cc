// A thin Node-API wrapper over speexdsp's resampler, for the echo reference: what hark played,
// counted by the speaker's clock, put onto the microphone's. The ratio is fractional (in/out =
// num/den, set again as the measured skew moves: speexdsp keeps its phase across the change).
#include "resampler.h"
#include "resample-ext.h"
#include <vector>

namespace {

class Resampler : public Napi::ObjectWrap<Resampler> {
 public:
  static void Init(Napi::Env env, Napi::Object exports) {
    Napi::Function fn = DefineClass(env, "Resampler", {
      InstanceMethod("setRatio", &Resampler::SetRatio),
      InstanceMethod("process", &Resampler::Process),
      InstanceMethod("reset", &Resampler::Reset),
      InstanceMethod("setPhase", &Resampler::SetPhase),
      InstanceMethod("close", &Resampler::Close),
      InstanceAccessor("inputLatency", &Resampler::InputLatency, nullptr),
    });
    exports.Set("Resampler", fn);
  }

  explicit Resampler(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Resampler>(info) {
    Napi::Env env = info.Env();
    int quality = info.Length() > 0 && info[0].IsNumber() ? info[0].As<Napi::Number>().Int32Value() : -1;
    if (quality < 0 || quality > 10) {
      Napi::RangeError::New(env, "Resampler: quality 0-10").ThrowAsJavaScriptException();
      return;
    }
    int err = 0;
    st_ = speex_resampler_init(1, 16000, 16000, quality, &err);
    if (!st_) Napi::Error::New(env, speex_resampler_strerror(err)).ThrowAsJavaScriptException();
  }

  ~Resampler() { Free(); }

 private:
  void Free() {
    if (st_) speex_resampler_destroy(st_);
    st_ = nullptr;
  }

  bool Open(Napi::Env env) {
    if (st_) return true;
    Napi::Error::New(env, "Resampler: closed").ThrowAsJavaScriptException();
    return false;
  }

  // Input samples per output sample = num / den. den times speexdsp's oversampling must stay under
  // 2^32 (its interpolation multiplies the two in 32 bits), so den is at most 2^26. Kept unreduced
  // (src/resample-ext.c), the phase carries over a change of ratio.
  Napi::Value SetRatio(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (!Open(env)) return env.Undefined();
    double num = info.Length() > 1 && info[0].IsNumber() ? info[0].As<Napi::Number>().DoubleValue() : 0;
    double den = info.Length() > 1 && info[1].IsNumber() ? info[1].As<Napi::Number>().DoubleValue() : 0;
    if (!(num >= 1 && den >= 1 && den <= 67108864.0 && num <= 2 * den && den <= 2 * num)) {
      Napi::RangeError::New(env, "Resampler.setRatio: num and den whole, 1 to 2^26, within a factor 2 of each other").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    int err = hark_resampler_set_ratio(st_, (spx_uint32_t)num, (spx_uint32_t)den);
    if (err) Napi::Error::New(env, speex_resampler_strerror(err)).ThrowAsJavaScriptException();
    return env.Undefined();
  }

  // Resample from `in` into `out` until `out` is full or `in` runs out; returns [consumed, produced].
  Napi::Value Process(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (!Open(env)) return env.Undefined();
    if (info.Length() < 2 || !info[0].IsTypedArray() || !info[1].IsTypedArray()) {
      Napi::TypeError::New(env, "Resampler.process: expected (Int16Array, Int16Array)").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    Napi::TypedArray a = info[0].As<Napi::TypedArray>();
    Napi::TypedArray b = info[1].As<Napi::TypedArray>();
    if (a.TypedArrayType() != napi_int16_array || b.TypedArrayType() != napi_int16_array) {
      Napi::TypeError::New(env, "Resampler.process: expected Int16Arrays").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    Napi::Int16Array in = a.As<Napi::Int16Array>();
    Napi::Int16Array out = b.As<Napi::Int16Array>();
    spx_uint32_t inLen = (spx_uint32_t)in.ElementLength();
    spx_uint32_t outLen = (spx_uint32_t)out.ElementLength();
    speex_resampler_process_int(st_, 0, in.Data(), &inLen, out.Data(), &outLen);
    Napi::Array r = Napi::Array::New(env, 2);
    r.Set(0u, Napi::Number::New(env, inLen));
    r.Set(1u, Napi::Number::New(env, outLen));
    return r;
  }

  // Forget the input so far; the next output is the first (its phase: setPhase).
  Napi::Value Reset(const Napi::CallbackInfo& info) {
    if (st_) speex_resampler_reset_mem(st_);
    return info.Env().Undefined();
  }

  // Right after reset(): the first output falls `frac` (0 to 1) of an input sample after where it would.
  Napi::Value SetPhase(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (!Open(env)) return env.Undefined();
    double frac = info.Length() > 0 && info[0].IsNumber() ? info[0].As<Napi::Number>().DoubleValue() : -1;
    if (!(frac >= 0 && frac < 1)) {
      Napi::RangeError::New(env, "Resampler.setPhase: a fraction, 0 to 1").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    hark_resampler_set_phase(st_, frac);
    return env.Undefined();
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    Free();
    return info.Env().Undefined();
  }

  // Input samples an output sample lags behind (half the filter): the first output is the input
  // that many samples back.
  Napi::Value InputLatency(const Napi::CallbackInfo& info) {
    return Napi::Number::New(info.Env(), st_ ? speex_resampler_get_input_latency(st_) : 0);
  }

  SpeexResamplerState* st_ = nullptr;
};

}  // namespace

void InitResampler(Napi::Env env, Napi::Object exports) { Resampler::Init(env, exports); }
