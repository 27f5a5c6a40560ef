/*
 * Preloaded (LD_PRELOAD) into a benchmarked `hark run` where a C compiler is at hand: every
 * MALLINFO_MS it appends glibc's mallinfo2() for the process to $MALLINFO_FILE.<pid>. /proc's RssAnon
 * cannot tell memory malloc holds in use (a native leak, a cache) from memory it keeps freed
 * (fragmentation) or from V8's heap; this can: arena, in use, free, and mmapped bytes.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void *sample(void *arg) {
  char path[1024];
  const char *every = getenv("MALLINFO_MS");
  useconds_t us = (every ? atoi(every) : 2000) * 1000;
  snprintf(path, sizeof path, "%s.%d", (const char *)arg, getpid());
  for (;;) {
    struct mallinfo2 m = mallinfo2();
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    FILE *f = fopen(path, "a");
    if (f) {
      fprintf(f, "%lld %zu %zu %zu %zu\n", (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000, m.arena, m.uordblks, m.fordblks, m.hblkhd);
      fclose(f);
    }
    usleep(us);
  }
  return NULL;
}

__attribute__((constructor)) static void start(void) {
  const char *file = getenv("MALLINFO_FILE");
  pthread_t t;
  if (file && pthread_create(&t, NULL, sample, (void *)file) == 0) pthread_detach(t);
}
