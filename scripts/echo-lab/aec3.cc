// WebRTC AEC3 (webrtc-audio-processing 1.x, Debian trixie's libwebrtc-audio-processing-dev) over a
// recorded room: ref.wav is what hark played, mic.wav the microphone, both 16 kHz mono s16 from the
// same instant. Writes the cleaned microphone and prints one JSON line (process CPU time per 32 ms
// of audio).
//
// Only the public API (AudioProcessingBuilder + AudioProcessing::Config): what an addon for hark
// could use. That API leaves AEC3's own configuration (its ~52 ms linear filter, its suppressor) at
// the defaults WebRTC ships; the echo beyond the filter is left to the suppressor by design.
//
//   aec3 ref.wav mic.wav out.wav [--ns off|low|moderate|high|veryhigh] [--delay-ms N] [--no-hpf]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "modules/audio_processing/include/audio_processing.h"

namespace {

// The samples of a 16 kHz mono s16 WAV (the chunks are walked: sox and hark write different headers).
std::vector<int16_t> ReadWav(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) { fprintf(stderr, "aec3: cannot open %s\n", path.c_str()); exit(2); }
  std::vector<char> b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (b.size() < 12 || memcmp(b.data(), "RIFF", 4) != 0 || memcmp(b.data() + 8, "WAVE", 4) != 0) {
    fprintf(stderr, "aec3: %s is not a WAV file\n", path.c_str()); exit(2);
  }
  size_t p = 12;
  uint16_t channels = 0, bits = 0;
  uint32_t rate = 0;
  while (p + 8 <= b.size()) {
    uint32_t len;
    memcpy(&len, b.data() + p + 4, 4);
    if (memcmp(b.data() + p, "fmt ", 4) == 0) {
      memcpy(&channels, b.data() + p + 10, 2);
      memcpy(&rate, b.data() + p + 12, 4);
      memcpy(&bits, b.data() + p + 22, 2);
    } else if (memcmp(b.data() + p, "data", 4) == 0) {
      if (channels != 1 || rate != 16000 || bits != 16) {
        fprintf(stderr, "aec3: %s must be 16 kHz mono s16 (is %u Hz, %u ch, %u bit)\n", path.c_str(), rate, channels, bits); exit(2);
      }
      size_t n = std::min<size_t>(len, b.size() - p - 8) / 2;
      std::vector<int16_t> s(n);
      memcpy(s.data(), b.data() + p + 8, n * 2);
      return s;
    }
    p += 8 + len + (len & 1);
  }
  fprintf(stderr, "aec3: %s has no data chunk\n", path.c_str()); exit(2);
}

void WriteWav(const std::string& path, const std::vector<int16_t>& s) {
  std::ofstream f(path, std::ios::binary);
  auto u32 = [&](uint32_t v) { f.write(reinterpret_cast<const char*>(&v), 4); };
  auto u16 = [&](uint16_t v) { f.write(reinterpret_cast<const char*>(&v), 2); };
  f.write("RIFF", 4); u32(36 + s.size() * 2); f.write("WAVEfmt ", 8);
  u32(16); u16(1); u16(1); u32(16000); u32(32000); u16(2); u16(16);
  f.write("data", 4); u32(s.size() * 2);
  f.write(reinterpret_cast<const char*>(s.data()), s.size() * 2);
}

double CpuMs() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) { fprintf(stderr, "usage: aec3 ref.wav mic.wav out.wav [--ns off|low|moderate|high|veryhigh] [--delay-ms N] [--no-hpf]\n"); return 2; }
  std::string ns = "moderate";
  int delayMs = 0;
  bool hpf = true;
  for (int i = 4; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--ns" && i + 1 < argc) ns = argv[++i];
    else if (a == "--delay-ms" && i + 1 < argc) delayMs = atoi(argv[++i]);
    else if (a == "--no-hpf") hpf = false;
    else { fprintf(stderr, "aec3: unknown option %s\n", a.c_str()); return 2; }
  }
  std::vector<int16_t> ref = ReadWav(argv[1]), mic = ReadWav(argv[2]);

  std::unique_ptr<webrtc::AudioProcessing> apm(webrtc::AudioProcessingBuilder().Create());
  webrtc::AudioProcessing::Config config;
  config.echo_canceller.enabled = true;
  config.echo_canceller.mobile_mode = false;
  config.high_pass_filter.enabled = hpf;
  config.noise_suppression.enabled = ns != "off";
  if (ns == "low") config.noise_suppression.level = webrtc::AudioProcessing::Config::NoiseSuppression::kLow;
  else if (ns == "high") config.noise_suppression.level = webrtc::AudioProcessing::Config::NoiseSuppression::kHigh;
  else if (ns == "veryhigh") config.noise_suppression.level = webrtc::AudioProcessing::Config::NoiseSuppression::kVeryHigh;
  else config.noise_suppression.level = webrtc::AudioProcessing::Config::NoiseSuppression::kModerate;
  apm->ApplyConfig(config);

  const webrtc::StreamConfig sc(16000, 1);
  const size_t F = 160;  // AEC3 takes 10 ms frames
  std::vector<int16_t> out(mic.size(), 0), r(F), m(F), sink(F);
  size_t frames = 0;
  double cpu = 0;
  for (size_t p = 0; p + F <= mic.size(); p += F) {
    for (size_t i = 0; i < F; i++) r[i] = p + i < ref.size() ? ref[p + i] : 0;
    std::copy(mic.begin() + p, mic.begin() + p + F, m.begin());
    double c0 = CpuMs();
    apm->ProcessReverseStream(r.data(), sc, sc, sink.data());
    apm->set_stream_delay_ms(delayMs);
    apm->ProcessStream(m.data(), sc, sc, out.data() + p);
    cpu += CpuMs() - c0;
    frames++;
  }
  WriteWav(argv[3], out);
  // AEC3's own statistics (GetStatistics) are left out: through this API they stayed at 0.2 dB of
  // ERLE while the output was 60 dB under the echo. The caller measures the output itself.
  printf("{\"frames10ms\":%zu,\"cpuMsPer32msFrame\":%.4f}\n", frames, frames ? cpu / frames * 3.2 : 0.0);
  return 0;
}
