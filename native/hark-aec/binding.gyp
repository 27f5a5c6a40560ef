{
  "targets": [
    {
      "target_name": "hark_aec",
      "sources": ["src/addon.cc"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS"],
      "cflags": ["-O2"],
      "cflags_cc": ["-O2", "-std=c++17"],
      "libraries": ["<!@(pkg-config --libs speexdsp)"],
      "cflags_cc+": ["<!@(pkg-config --cflags speexdsp)"]
    }
  ]
}
