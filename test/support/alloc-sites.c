/*
 * Preloaded (LD_PRELOAD) into a benchmarked `hark run` (test/bench/capture-soak.bench.ts, SOAK_SITES=1):
 * a sampling heap profiler. One in SAMPLE of the process's malloc/calloc/realloc results is kept with
 * its call stack until it is freed; every ALLOC_SITES_MS the blocks still live are written, grouped by
 * stack, to $ALLOC_SITES_FILE.<pid>.<n>, with the executable mappings to symbolize them by.
 *
 * Why: mallinfo-probe.c says how much malloc holds in use, not whose it is. On continuous talk the RSS rose a few
 * MB an hour with malloc's in-use figure; this tells a native leak (one stack's live bytes rising dump
 * after dump) from ArrayBuffers V8 has not collected yet (NodeArrayBufferAllocator, rising and falling
 * with its collections). Sampled by count, so a site's bytes are an estimate (x SAMPLE), good for what
 * is made of many blocks; blocks glibc maps on their own (MALLOC_MMAP_THRESHOLD_ and up) are counted
 * too but are better read from /proc.
 */
#define _GNU_SOURCE
#include <execinfo.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

#define SAMPLE 16
/* Frames kept per block: this file's two (record and the malloc it serves) and ten of the caller's. */
#define DEPTH 12
#define SKIP 2
/* The sampled blocks, by address: an open-addressing table (linear probing, deletion without
 * tombstones, so a free of an unsampled block, nearly every free, ends at the first empty slot). 2^17
 * slots of 120 bytes; hark keeps ~20 000 sampled blocks live. */
#define SLOTS (1u << 17)

struct rec { void *p; size_t size; void *st[DEPTH]; int n; };
static struct rec *table;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
/* Set while this file allocates for itself (backtrace, the dump): those are not sampled. */
static __thread int inhook;
static __thread unsigned counter;
static int ready;

static inline unsigned slot_of(void *p) { uintptr_t x = (uintptr_t)p; x ^= x >> 17; x *= 0x9E3779B97F4A7C15ull; return (unsigned)(x >> 40) & (SLOTS - 1); }

__attribute__((noinline)) static void record(void *p, size_t size) {
  if (!ready || !p || inhook) return;
  if (++counter % SAMPLE) return;
  inhook = 1;
  struct rec r;
  r.p = p; r.size = size;
  r.n = backtrace(r.st, DEPTH);
  for (int d = r.n; d < DEPTH; d++) r.st[d] = 0;
  pthread_mutex_lock(&mu);
  unsigned s = slot_of(p);
  for (unsigned i = 0; i < SLOTS; i++) {
    unsigned k = (s + i) & (SLOTS - 1);
    if (table[k].p == NULL) { table[k] = r; break; }
  }
  pthread_mutex_unlock(&mu);
  inhook = 0;
}

static void forget(void *p) {
  if (!ready || !p) return;
  pthread_mutex_lock(&mu);
  unsigned s = slot_of(p);
  for (unsigned i = 0; i < SLOTS; i++) {
    unsigned k = (s + i) & (SLOTS - 1);
    if (table[k].p == NULL) break;
    if (table[k].p == p) {
      /* Linear probing's deletion: shift later entries of the run back, so no tombstones. */
      unsigned hole = k, j = k;
      for (;;) {
        j = (j + 1) & (SLOTS - 1);
        if (table[j].p == NULL) break;
        unsigned h = slot_of(table[j].p);
        int between = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
        if (!between) { table[hole] = table[j]; hole = j; }
      }
      table[hole].p = NULL;
      break;
    }
  }
  pthread_mutex_unlock(&mu);
}

void *malloc(size_t n) { void *p = __libc_malloc(n); record(p, n); return p; }
void *calloc(size_t a, size_t b) { void *p = __libc_calloc(a, b); record(p, a * b); return p; }
void *realloc(void *o, size_t n) { forget(o); void *p = __libc_realloc(o, n); record(p, n); return p; }
void free(void *p) { forget(p); __libc_free(p); }

static int cmp(const void *a, const void *b) {
  const struct rec *x = a, *y = b;
  return memcmp(x->st, y->st, sizeof x->st);
}

static void *dumper(void *arg) {
  inhook = 1; /* this thread's own allocations are not sampled */
  const char *every = getenv("ALLOC_SITES_MS");
  useconds_t us = (every ? atoi(every) : 60000) * 1000;
  for (int n = 0;; n++) {
    usleep(us);
    pthread_mutex_lock(&mu);
    size_t live = 0;
    for (unsigned k = 0; k < SLOTS; k++) if (table[k].p) live++;
    struct rec *copy = __libc_malloc(live * sizeof *copy + 1);
    size_t j = 0;
    for (unsigned k = 0; k < SLOTS; k++) if (table[k].p) copy[j++] = table[k];
    pthread_mutex_unlock(&mu);
    qsort(copy, j, sizeof *copy, cmp);
    char path[1024];
    snprintf(path, sizeof path, "%s.%d.%03d", (const char *)arg, getpid(), n);
    FILE *f = fopen(path, "w");
    if (!f) { __libc_free(copy); continue; }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    fprintf(f, "T %lld\n", (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
    for (size_t i = 0; i < j;) {
      size_t e = i, bytes = 0;
      while (e < j && memcmp(copy[e].st, copy[i].st, sizeof copy[i].st) == 0) bytes += copy[e++].size;
      fprintf(f, "S %zu %zu", e - i, bytes);
      for (int d = SKIP; d < DEPTH && copy[i].st[d]; d++) fprintf(f, " %p", copy[i].st[d]);
      fputc('\n', f);
      i = e;
    }
    /* Executable mappings (and each file's first, for its load address): enough for addr2line. */
    FILE *m = fopen("/proc/self/maps", "r");
    if (m) {
      char line[1024];
      while (fgets(line, sizeof line, m)) if (strstr(line, "r-xp") || strstr(line, " r--p 00000000")) fprintf(f, "M %s", line);
      fclose(m);
    }
    fclose(f);
    __libc_free(copy);
  }
  return NULL;
}

__attribute__((constructor)) static void start(void) {
  const char *file = getenv("ALLOC_SITES_FILE");
  if (!file) return;
  void *warm[4];
  inhook = 1;
  backtrace(warm, 4); /* loads libgcc's unwinder now, not inside a hooked malloc */
  table = __libc_calloc(SLOTS, sizeof *table);
  inhook = 0;
  pthread_t t;
  if (table && pthread_create(&t, NULL, dumper, (void *)file) == 0) { pthread_detach(t); ready = 1; }
}
