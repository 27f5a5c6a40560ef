/* What speexdsp's ./configure would write for hark's build: float, speexdsp's own FFT (smallft,
 * as Debian's libspeexdsp1 uses), symbols kept inside the addon. */
#define FLOATING_POINT 1
#define USE_SMALLFT 1
#define EXPORT
