// hark-aec: a thin Node-API wrapper over speexdsp's echo canceller and preprocessor (and its
// resampler: src/resampler.cc).
// All the signal processing is speexdsp's; this file only owns the states and moves samples.
#include <napi.h>
#include <speex/speex_echo.h>
#include <speex/speex_preprocess.h>
#include "resampler.h"
#include <cstring>
#include <vector>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

class Canceller : public Napi::ObjectWrap<Canceller> {
 public:
  static Napi::Object Init(Napi::Env env, Napi::Object exports) {
    Napi::Function fn = DefineClass(env, "Canceller", {
      InstanceMethod("process", &Canceller::Process),
      InstanceMethod("reset", &Canceller::Reset),
      InstanceMethod("close", &Canceller::Close),
      InstanceAccessor("latency", &Canceller::Latency, nullptr),
    });
    exports.Set("Canceller", fn);
    return exports;
  }

  explicit Canceller(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Canceller>(info) {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || !info[0].IsObject()) {
      Napi::TypeError::New(env, "Canceller: expected an options object").ThrowAsJavaScriptException();
      return;
    }
    Napi::Object o = info[0].As<Napi::Object>();
    auto num = [&](const char* k) -> int {
      Napi::Value v = o.Get(k);
      return v.IsNumber() ? v.As<Napi::Number>().Int32Value() : 0;
    };
    auto flag = [&](const char* k) -> bool {
      Napi::Value v = o.Get(k);
      return v.IsBoolean() && v.As<Napi::Boolean>().Value();
    };
    frame_ = num("frameSize");
    int filter = num("filterLength");
    int rate = num("sampleRate");
    if (frame_ < 32 || frame_ > 4096 || filter < frame_ || filter > 65536 || rate < 8000 || rate > 48000) {
      Napi::RangeError::New(env, "Canceller: frameSize 32-4096, filterLength frameSize-65536, sampleRate 8000-48000").ThrowAsJavaScriptException();
      return;
    }
    cancel_ = flag("cancel");
    bool residual = flag("suppressResidual");
    denoise_ = flag("denoise");
    if (cancel_) {
      echo_ = speex_echo_state_init(frame_, filter);
      speex_echo_ctl(echo_, SPEEX_ECHO_SET_SAMPLING_RATE, &rate);
    }
    if (denoise_ || (cancel_ && residual)) {
      pre_ = speex_preprocess_state_init(frame_, rate);
      // speexdsp applies its spectral gains (residual echo included) only with denoise on: with noise
      // suppression off, denoise stays on but may take at most 1 dB off the noise.
      int on = 1;
      speex_preprocess_ctl(pre_, SPEEX_PREPROCESS_SET_DENOISE, &on);
      int ns = denoise_ ? num("noiseSuppressDb") : -1;
      if (ns < 0) speex_preprocess_ctl(pre_, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, &ns);
      if (cancel_ && residual) {
        residual_ = true;
        int es = num("echoSuppressDb");
        int esa = num("echoSuppressActiveDb");
        if (es < 0) speex_preprocess_ctl(pre_, SPEEX_PREPROCESS_SET_ECHO_SUPPRESS, &es);
        if (esa < 0) speex_preprocess_ctl(pre_, SPEEX_PREPROCESS_SET_ECHO_SUPPRESS_ACTIVE, &esa);
      }
      latency_ = frame_;
      held_.assign(frame_, 0);
      given_.assign(frame_, 0);
      scratch_.assign(frame_, 0);
    }
  }

  ~Canceller() { Free(); }

 private:
  void Free() {
    if (echo_) speex_echo_state_destroy(echo_);
    if (pre_) speex_preprocess_state_destroy(pre_);
    echo_ = nullptr;
    pre_ = nullptr;
  }

  static bool Int16(const Napi::Value& v, Napi::TypedArrayOf<int16_t>* out) {
    if (!v.IsTypedArray()) return false;
    Napi::TypedArray t = v.As<Napi::TypedArray>();
    if (t.TypedArrayType() != napi_int16_array) return false;
    *out = t.As<Napi::TypedArrayOf<int16_t>>();
    return true;
  }

  Napi::Value Process(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Napi::TypedArrayOf<int16_t> mic, ref, out;
    bool hasRef = info.Length() > 1 && !info[1].IsNull() && !info[1].IsUndefined();
    if (info.Length() < 3 || !Int16(info[0], &mic) || (hasRef && !Int16(info[1], &ref)) || !Int16(info[2], &out)) {
      Napi::TypeError::New(env, "process(mic: Int16Array, ref: Int16Array | null, out: Int16Array)").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    size_t n = mic.ElementLength();
    if (n % frame_ != 0 || out.ElementLength() != n || (hasRef && ref.ElementLength() != n)) {
      Napi::RangeError::New(env, "process: mic, ref and out must be the same length, a multiple of frameSize").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    if (closed_) {
      Napi::Error::New(env, "process: the canceller was closed").ThrowAsJavaScriptException();
      return env.Undefined();
    }
    const int16_t* m = mic.Data();
    int16_t* o = out.Data();
    for (size_t i = 0; i < n; i += frame_) {
      bool cancelled = false;
      if (echo_ && hasRef) {
        speex_echo_cancellation(echo_, m + i, ref.Data() + i, o + i);
        cancelled = true;
      } else if (m + i != o + i) {
        std::memcpy(o + i, m + i, frame_ * sizeof(int16_t));
      }
      if (pre_) {
        // The residual estimate is only meaningful for a frame the filter just ran on.
        SpeexEchoState* es = (residual_ && cancelled) ? echo_ : nullptr;
        bool suppress = denoise_ || es;
        std::memcpy(given_.data(), o + i, frame_ * sizeof(int16_t));
        // The preprocessor's overlap-add hands back the frame before the one it is given (latency_):
        // every frame comes out one frame late, whether it runs on it or not, and when it runs it has
        // always been given the frame before. It used to run only on frames hark played over, so each
        // playback start handed back the last frame of the previous playback and each stop dropped
        // 16 ms (issue 32, test/echo/mic-timeline.test.ts).
        if (suppress || lastSuppressed_) {
          // Its output mixes this frame's gains with the last one's: it goes out whenever either had
          // something to take out (denoise; hark's echo, also as playback starts and stops).
          if (!lastSuppressed_) {
            // It last ran before the quiet: first it is given the frame it is to hand back now.
            Attach(nullptr);
            std::memcpy(scratch_.data(), held_.data(), frame_ * sizeof(int16_t));
            speex_preprocess_run(pre_, scratch_.data());
          }
          Attach(es);
          speex_preprocess_run(pre_, o + i);
        } else {
          // Nothing to take out (hark quiet, noise suppression off): the room goes on untouched, one
          // frame late like the rest, for no more CPU than the copy (not through the 1 dB the
          // forced-on denoiser may take, see the constructor).
          std::memcpy(o + i, held_.data(), frame_ * sizeof(int16_t));
        }
        // This frame as the preprocessor would be given it: what the next one hands back.
        held_.swap(given_);
        lastSuppressed_ = suppress;
      }
    }
    return env.Undefined();
  }

  void Attach(SpeexEchoState* es) {
    if (es == attached_) return;
    speex_preprocess_ctl(pre_, SPEEX_PREPROCESS_SET_ECHO_STATE, es);
    attached_ = es;
  }

  // Samples the output lags the microphone by: speexdsp's preprocessor (50%-overlap windows of twice
  // its frame) gives back each frame one frame later; the echo filter alone adds none.
  Napi::Value Latency(const Napi::CallbackInfo& info) {
    return Napi::Number::New(info.Env(), latency_);
  }

  Napi::Value Reset(const Napi::CallbackInfo& info) {
    if (echo_) speex_echo_state_reset(echo_);
    return info.Env().Undefined();
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    Free();
    closed_ = true;
    return info.Env().Undefined();
  }

  int frame_ = 0, latency_ = 0;
  // The last frame as the preprocessor would be given it (held_), this one's (given_), a copy to run
  // it on (scratch_), and whether the last frame had something to take out.
  std::vector<int16_t> held_, given_, scratch_;
  bool lastSuppressed_ = false;
  bool cancel_ = false, denoise_ = false, residual_ = false, closed_ = false;
  SpeexEchoState* echo_ = nullptr;
  SpeexEchoState* attached_ = nullptr;
  SpeexPreprocessState* pre_ = nullptr;
};

// Give the pages malloc holds free back to the kernel (glibc's malloc_trim(0), which walks every
// arena). glibc only returns the top of each heap on its own, so a long-running hark's RSS kept the
// free space left between live blocks by each segment's transient buffers (issue 31). It lives here
// because this is hark's one native addon; off glibc it does nothing and says so (false).
Napi::Value TrimHeap(const Napi::CallbackInfo& info) {
#if defined(__GLIBC__)
  return Napi::Boolean::New(info.Env(), malloc_trim(0) != 0);
#else
  return Napi::Boolean::New(info.Env(), false);
#endif
}

Napi::Object InitAll(Napi::Env env, Napi::Object exports) {
  exports.Set("trimHeap", Napi::Function::New(env, TrimHeap, "trimHeap"));
  InitResampler(env, exports);
  return Canceller::Init(env, exports);
}

NODE_API_MODULE(hark_aec, InitAll)
