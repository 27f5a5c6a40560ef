/* What speexdsp's ./configure would write for hark's build: float, symbols kept inside the addon.
 * The FFT is PFFFT through src/fftwrap-pffft.c, which replaces speexdsp's fftwrap.c; smallft (what
 * USE_SMALLFT names) stays for the sizes PFFFT does not take. */
#define FLOATING_POINT 1
#define USE_SMALLFT 1
#define EXPORT
