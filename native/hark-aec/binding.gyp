{
  "targets": [
    {
      "target_name": "hark_aec",
      "sources": [
        "src/addon.cc",
        "src/resampler.cc",
        "src/resample-ext.c",
        "speexdsp/libspeexdsp/mdf.c",
        "speexdsp/libspeexdsp/preprocess.c",
        "src/fftwrap-pffft.c",
        "pffft/pffft.c",
        "pffft/pffft_common.c",
        "speexdsp/libspeexdsp/smallft.c",
        "speexdsp/libspeexdsp/filterbank.c"
      ],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "speexdsp-config",
        "speexdsp/include",
        "speexdsp/libspeexdsp",
        "pffft"
      ],
      "defines": [
        "NAPI_VERSION=8",
        "NAPI_DISABLE_CPP_EXCEPTIONS",
        "HAVE_CONFIG_H",
        "PFFFT_ENABLE_NEON"
      ],
      "cflags": [
        "-fvisibility=hidden"
      ],
      "cflags_c": [
        "-O3",
        "-fno-math-errno",
        "-fassociative-math",
        "-fno-signed-zeros",
        "-fno-trapping-math",
        "-w"
      ],
      "cflags_cc": [
        "-O2",
        "-std=c++17"
      ]
    }
  ]
}
