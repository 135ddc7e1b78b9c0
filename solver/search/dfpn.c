/* dfpn.c - depth-first proof-number search in C, generic over a family's kernel (dfpn.h).

   The same search as solver/search/pns.py, step for step: a new leaf is (1, 1), a terminal (0, INF)
   when it satisfies the claim else (INF, 0); an OR node (the prover to move) has pn = min and
   dn = sum over its children, an AND node the reverse; the same choice of child (the first with
   the least number), the same second-best and the same thresholds with the 1+epsilon trick
   (epsilon = 1/4). So while the table evicts nothing, the node counts (calls of mid) equal those
   of solver/search/pns.py with its cache of expanded children off.

   Transposition table: buckets of WAYS (15) entries. A bucket's 15 tags (24 bits of the hash
   over the bit length of the entry's work; 0 marks a free slot) and its sequence counter
   (threads: the bucket's lock) fill one 64-byte cache line, its entries (48 bytes each: the
   whole key, pn, dn and the most nodes one visit spent below it) lie apart, so a probe reads one
   line of tags and then only the entries whose tag matches: a miss (most probes: a new child)
   touches one cache line, and so does choosing the entry a new key replaces. On entering a
   position the search asks for its line of tags, then for its children's, and only then probes
   its own (`prefetch_entry`, the line its first store writes): the misses wait together.
   A key lives in its home bucket (the hash times the bucket count, high bits) or, when that is
   full, in one of the next WINDOW - 1 (7); slots fill in order and entries are
   replaced but never removed, so a bucket with a free slot ends a search. The table is sized up
   front when the budget is known (`reserve`: the memory cap, or the node budget, since one node
   stores at most one entry), on huge pages where the kernel gives them and touched before the
   search; otherwise it starts small and doubles when it would be more than 75% full, or more than
   half full and a new key finds its window (120 slots) full, as long as the doubled size fits its
   byte cap (else it takes the cap). Otherwise a new key whose window is full evicts the least
   worked entry of its home bucket (by the bit length of its work, the first of equals): below
   the cap that takes a run of 8 full buckets at half load, which hashing makes vanishingly rare;
   at the cap it is routine. Eviction only costs work (and node counts then drift from
   solver/search/pns.py's): a verdict is never read from another position's entry. Once a serial
   table has evicted, every bucket is full and a probe for a new key would read all WINDOW lines of
   tags before it gives up, so from then on (until the table is placed anew) keys are looked for
   and placed within EVICTING_WINDOW buckets of home: an entry left further out is no longer found
   and is in time evicted, which costs work only (a 512 MB table at the cap, 20 M nodes of a
   ply-30 uttt search: 17.7 s of CPU against 21.5 s, docs/benchmarks.md).

   A policy (optional) is a Python callable consulted at every position where the prover moves:
   given the position in its Python form (the kernel's `export`), it returns the move codes the
   prover may play there, in order, or None to leave the choice to the kernel's candidates. The
   core knows nothing of what it decides (solver/search/native.py builds it from the Python
   search's PolicyHooks), and the node counts stay those of solver/search/pns.py with them.

   Closures (optional, the family's `close`, dfpn.h): at a position where the prover moves, visited
   for the first time (no table entry yet: a later visit knows it did not close), the family may
   prove the claim by its knowledge; the position is then proved (0, INF) without expanding it, as
   solver/search/pns.py's `closes`. The node counts stay those of solver/search/pns.py with
   `pairings` when the family's C closure decides as its Python hook does. Under a win claim the
   same hook refutes: at a position where the prover's opponent moves, visited for the first time,
   a closure of the opponent's no-loss claim disproves it (INF, 0), as solver/search/pns.py's
   `refuted`; nothing of it goes into a certificate (a proof holds no disproved position).

   A bounded claim (`within` N, as solver/search/pns.py's Claim.within): a position at ply N from
   the root of the search call is an end that satisfies a no-loss claim and fails a win claim.

   A search may take the table of a search of its claim's complement (`adopt`), numbers swapped: a
   disproof's table is then the opposite claim's proof, less what it evicted.

   Python module solver.search._dfpn: one type, Search(family, config, prover, no_loss, table_bytes, policy=None,
   within=-1, closures=False), and closes(family): whether that family's kernel has `close`. */
#include "dfpn.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef uint64_t u64;
#define INF (1ULL << 60) /* as solver/search/pns.py: sums are capped here */
#define WAYS 15 /* entries per bucket: their tags and the bucket's sequence counter fill one cache line */
#define WINDOW 8 /* the buckets from its home where a key may live */
#define EVICTING_WINDOW 2 /* ... once a serial table has evicted (the file's opening comment) */
#define MIN_BUCKETS 1024ULL
#define HUGE_PAGE (2ULL << 20)
#define GROWTH_HEADROOM_NUM 3 /* a resize maps at most 3/2 of the table's cap at once (buckets_allowed) */
#define GROWTH_HEADROOM_DEN 2
#define CHECK_EVERY 1024 /* nodes between looks at the clock, memory, Ctrl-C and progress */
#define DFPN_CLOSE 255 /* the move byte of a position a closure proves (checker/proof.py CLOSE) */
#define DFPN_IMAGE 253 /* the move byte of a position named a symmetric image of one seen (checker/proof.py IMAGE) */

typedef struct {
    DfpnKey key;
    u64 pn, dn;
    u64 work; /* 0: an empty slot */
} Entry;

_Static_assert(sizeof(Entry) == 48, "a table entry is 48 bytes");

typedef struct {
    _Alignas(64) uint32_t tag[WAYS]; /* 0: a free slot; else 24 bits of the hash over the entry's work class */
    uint32_t seq; /* threads: the bucket's sequence lock (odd while a thread writes the bucket); else unused */
} Tags;

_Static_assert(sizeof(Tags) == 64, "a bucket's tags are one cache line");
#define BUCKET_BYTES (sizeof(Tags) + WAYS * sizeof(Entry))

/* SETTLED: only threads' (a thread's mid returned at the root: the others stop). */
typedef enum { RUNNING, NODE_BUDGET, MEMORY_BUDGET, TIME_BUDGET, INTERRUPTED, FAILED, SETTLED } Stop;
static const char *const STOP_WORDS[] = {"", "node budget", "memory budget", "time budget", "interrupted", "", ""};

struct Shared; /* threads searching one table (the section "threads" below) */

typedef struct {
    PyObject_HEAD
    const DfpnFamily *family;
    void *kernel;
    int prover, no_loss;
    int within; /* a bounded claim: a position at this ply from the search's root is an end (-1: none) */
    int closures; /* 1: the family's `close` may prove the prover's positions */
    unsigned char record[DFPN_CLOSURE_BYTES]; /* the closure being asked for */
    Tags *tags;     /* buckets of tags, then (`table`) buckets of entries, in one mapping */
    Entry *table;
    void *mapping;  /* the mapping's start and length (aligned to huge pages inside it) */
    size_t mapped;
    u64 buckets, slots, used, evictions, table_cap; /* table_cap: the most bytes the table may take */
    int window;     /* the buckets a serial probe reads: WINDOW, EVICTING_WINDOW once the table evicts */
    DfpnChild *children;                     /* max_moves per depth, for the path being searched */
    u64 *known;                              /* their (pn, dn), 2 per child, as the table last gave them */
    PyObject *policy;                        /* NULL, or the callable naming the prover's moves */
    DfpnChild *legal;                        /* max_moves: the legal children a policy chooses from */
    int max_plies, max_moves;
    u64 nodes;
    /* one search call's budgets and clock */
    u64 limit_nodes;
    double limit_mb, deadline, started, next_report, report_every, peak_mb;
    PyObject *progress;
    DfpnKey root_key;
    u64 root_hash;
    jmp_buf stop;
    Stop status;
    PyObject *config;       /* the family's configuration: each search thread makes its own kernel from it */
    struct Shared *shared;  /* NULL, or the threads this Search is one of (or the supervisor of) */
    int thread;             /* this thread's index among them */
    u64 allowed;            /* a thread: its nodes may reach this before it asks for more */
    int spread;             /* threads: how much harder a child another thread searches looks (Shared) */
} Search;

/* ---------------------------------------------------------------- helpers */

static u64 mix(u64 z) { /* splitmix64's finalizer */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static u64 key_hash(const DfpnKey *key) { return mix(key->w[0] ^ mix(key->w[1] ^ mix(key->w[2] + 0x9E3779B97F4A7C15ULL))); }

static int same_key(const DfpnKey *a, const DfpnKey *b) {
    return a->w[0] == b->w[0] && a->w[1] == b->w[1] && a->w[2] == b->w[2];
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static double rss_mb(void) { /* resident memory now, as solver/search/pns.py rss_mb reads it */
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (!f) return 0.0;
    int got = fscanf(f, "%ld %ld", &pages, &resident);
    fclose(f);
    return got == 2 ? (double)resident * sysconf(_SC_PAGESIZE) / 1048576.0 : 0.0;
}

static u64 min_u64(u64 a, u64 b) { return a < b ? a : b; }

/* ---------------------------------------------------------------- transposition table */

/* A slot's tag word: bits 8-31 of the key's hash (never all 0: a 0 word marks a free slot) over
   the work class of its entry (CLASS_MASK: the bit length of its work), so a full bucket's least
   worked entry is chosen from its line of tags alone, not from 15 entries over 12 lines. */
#define CLASS_MASK 0xFFu
static uint32_t tag_of(u64 hash) {
    uint32_t tag = (uint32_t)hash & ~CLASS_MASK;
    return tag ? tag : CLASS_MASK + 1;
}
static uint32_t work_class(u64 work) { return 64 - (uint32_t)__builtin_clzll(work | 1); }
static uint32_t tag_word(uint32_t tag, u64 work) { return tag | work_class(work); }
static uint32_t *tag_at(Tags *tags, u64 slot) { return &tags[slot / WAYS].tag[slot % WAYS]; } /* a slot's tag word */

/* The slot of a full bucket a new key takes: its least worked entry, by class (the first of equals). */
static int least_worked(const Tags *t) {
    int least = 0;
    for (int i = 1; i < WAYS; i++)
        if ((t->tag[i] & CLASS_MASK) < (t->tag[least] & CLASS_MASK)) least = i;
    return least;
}
static u64 home_of(u64 hash, u64 buckets) { return (u64)(((unsigned __int128)hash * buckets) >> 64); }

/* The slots of a bucket whose tag is `tag`, as a bit mask: the line compared 4 tags at a time
   (the sequence word, the 16th, masked off). */
static unsigned tag_matches(const Tags *t, uint32_t tag) {
#if defined(__SSE2__)
    const __m128i want = _mm_set1_epi32((int)tag), keep = _mm_set1_epi32((int)~CLASS_MASK), *line = (const __m128i *)t->tag;
    unsigned mask = 0;
    for (int i = 0; i < 4; i++) {
        __m128i tags = _mm_and_si128(_mm_load_si128(line + i), keep);
        mask |= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(tags, want))) << (4 * i);
    }
    return mask & ((1u << WAYS) - 1);
#else
    unsigned mask = 0;
    for (int i = 0; i < WAYS; i++) mask |= (unsigned)((t->tag[i] & ~CLASS_MASK) == tag) << i;
    return mask;
#endif
}

static Entry *find(const Search *s, u64 hash, const DfpnKey *key) {
    uint32_t tag = tag_of(hash);
    u64 b = home_of(hash, s->buckets);
    for (int j = 0; j < s->window; j++) {
        const Tags *t = &s->tags[b];
        for (unsigned m = tag_matches(t, tag); m; m &= m - 1) {
            Entry *e = &s->table[b * WAYS + __builtin_ctz(m)];
            if (same_key(&e->key, key)) return e;
        }
        if (!t->tag[WAYS - 1]) return NULL; /* a free slot: the key would be here */
        if (++b == s->buckets) b = 0;
    }
    return NULL;
}

/* Ask for a key's home bucket of tags ahead of its probe: the children's probes then wait for
   memory together, not one after another. */
static void prefetch(const Search *s, u64 hash) {
#if defined(__x86_64__)
    __asm__ volatile("prefetcht0 %0" : : "m"(*(const char *)&s->tags[home_of(hash, s->buckets)]));
#else
    __builtin_prefetch(&s->tags[home_of(hash, s->buckets)]);
#endif
}

/* ---------------------------------------------------------------- the table shared by threads

   Threads searching one table (`search(..., threads=N)`) read and write it through a sequence
   lock per bucket, kept in the bucket's line of tags (`Tags.seq`), so a probe touches the one line
   it reads anyway. A writer takes the counters of the buckets it walks (from the key's home on,
   up to the one holding the key or a free slot: at most WINDOW, always in that order) from even
   to odd, writes, and makes them even again; a reader never writes: per bucket it reads the
   counter, matches the tags and reads a matching entry with plain loads, and tries that bucket
   again if the counter was odd or moved. So a reader never sees one position's numbers under
   another's key, and a proof or disproof read from the table is one some thread found. Two
   writers never wait on each other in a cycle: each holds at most WINDOW consecutive buckets and
   waits only on one after them, and a cycle would need the held runs to go round the table
   (more than MIN_BUCKETS / WINDOW threads; MAX_THREADS is fewer).
   The table grows only while every thread is parked (the supervisor's `grow_parked`). */
#define MAX_THREADS 64

typedef struct Shared {
    int threads;
    int stop;               /* 0 while running, else the first Stop a thread or the supervisor set */
    int pause, parked, exited;
    u64 granted, limit;     /* nodes handed out to threads, and the most they may be */
    u64 used, evictions;    /* the threads' new entries and evictions, added in at each grant */
    int path_stride;
    u64 **path;             /* per thread: the hash of the position it searches at each depth, 0 below it */
    u64 *cut;               /* per thread (a cache line each, CUT_STRIDE): 1 + the depth of a position on its
                               path another thread solved (its search below is of no more use), else 0 */
    int spread;             /* a child another thread searches looks (1 + spread/4) times harder, plus 1 */
    pthread_mutex_t mutex;
    pthread_cond_t wake;    /* the supervisor: a thread parked or ended */
    pthread_cond_t resume;  /* the threads: the pause is over */
} Shared;

#define CUT_STRIDE 8 /* u64s: one cache line */
#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

static inline void cpu_relax(void) {
#if defined(__x86_64__)
    __asm__ volatile("pause");
#endif
}

/* As `lookup` on a table other threads write: bucket by bucket, each read validated by its counter.
   The tags are read with plain (vector) loads that may race with a writer: the counter then moved,
   and the bucket is read again. */
static int shared_lookup(const Search *s, u64 hash, const DfpnKey *key, u64 *pn, u64 *dn) {
    uint32_t tag = tag_of(hash);
    u64 b = home_of(hash, s->buckets);
    for (int j = 0; j < WINDOW; j++) {
        Tags *t = &s->tags[b];
        for (;;) {
            uint32_t seq = __atomic_load_n(&t->seq, __ATOMIC_ACQUIRE);
            if (seq & 1) {
                cpu_relax();
                continue;
            }
            int found = 0, more = LOAD(t->tag[WAYS - 1]) != 0;
            u64 p = 0, d = 0;
            for (unsigned mask = tag_matches(t, tag); mask; mask &= mask - 1) {
                Entry *e = &s->table[b * WAYS + __builtin_ctz(mask)];
                if (LOAD(e->key.w[0]) == key->w[0] && LOAD(e->key.w[1]) == key->w[1] && LOAD(e->key.w[2]) == key->w[2]) {
                    found = 1, p = LOAD(e->pn), d = LOAD(e->dn);
                    break;
                }
            }
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            if (LOAD(t->seq) != seq) continue;
            if (found) {
                *pn = p, *dn = d;
                return 1;
            }
            if (!more) return 0; /* a free slot: the key would be here */
            break;
        }
        if (++b == s->buckets) b = 0;
    }
    return 0;
}

static void bucket_lock(Tags *t) {
    for (;;) {
        uint32_t v = LOAD(t->seq);
        if (!(v & 1) && __atomic_compare_exchange_n(&t->seq, &v, v + 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) break;
        cpu_relax();
    }
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static void bucket_unlock(Tags *t) { __atomic_store_n(&t->seq, LOAD(t->seq) + 1, __ATOMIC_RELEASE); }

/* As `store`, holding the buckets it walks, never growing the table (the supervisor grows it)
   and never putting an open position's numbers over a proof or disproof another thread stored. */
static void shared_store(Search *s, u64 hash, const DfpnKey *key, u64 pn, u64 dn, u64 work) {
    uint32_t tag = tag_of(hash);
    u64 home = home_of(hash, s->buckets), b = home;
    Entry *slot = NULL;
    int held = 0, full = 1;
    while (held < WINDOW) {
        Tags *t = &s->tags[b];
        bucket_lock(t);
        held++;
        for (unsigned mask = tag_matches(t, tag); mask && !slot; mask &= mask - 1) {
            Entry *e = &s->table[b * WAYS + __builtin_ctz(mask)];
            if (same_key(&e->key, key)) slot = e;
        }
        if (slot) break;
        if (!t->tag[WAYS - 1]) { /* slots fill in order: the first free one */
            full = 0;
            break;
        }
        if (++b == s->buckets) b = 0;
    }
    if (slot) {
        if (slot->work < work) {
            u64 at = (u64)(slot - s->table);
            STORE(slot->work, work);
            STORE(*tag_at(s->tags, at), tag_word(tag, work));
        }
        if ((!slot->pn || !slot->dn) && pn && dn) goto done;
    } else {
        u64 at;
        if (full) { /* the least worked entry of its home bucket (held: the first) */
            s->evictions++;
            at = home * WAYS + least_worked(&s->tags[home]);
        } else {
            s->used++;
            int i = 0;
            while (s->tags[b].tag[i]) i++;
            at = b * WAYS + i;
        }
        slot = &s->table[at];
        STORE(*tag_at(s->tags, at), tag_word(tag, work));
        STORE(slot->key.w[0], key->w[0]);
        STORE(slot->key.w[1], key->w[1]);
        STORE(slot->key.w[2], key->w[2]);
        STORE(slot->work, work);
    }
    STORE(slot->pn, pn);
    STORE(slot->dn, dn);
done:
    for (b = home; held--; b = b + 1 == s->buckets ? 0 : b + 1) bucket_unlock(&s->tags[b]);
}

static int lookup(const Search *s, u64 hash, const DfpnKey *key, u64 *pn, u64 *dn) {
    if (s->shared) return shared_lookup(s, hash, key, pn, dn);
    Entry *e = find(s, hash, key);
    if (!e) return 0;
    *pn = e->pn;
    *dn = e->dn;
    return 1;
}

/* The slot (its index) for a key that is not in the table: the first free one of the `window`
   buckets from its home, else (*full) the least worked entry of its home bucket. */
static u64 free_slot(const Tags *tags, u64 buckets, int window, u64 hash, int *full) {
    u64 b = home_of(hash, buckets), home = b;
    *full = 0;
    for (int j = 0; j < window; j++) {
        const Tags *t = &tags[b];
        if (!t->tag[WAYS - 1]) { /* slots fill in order: the first free one */
            int i = 0;
            while (t->tag[i]) i++;
            return b * WAYS + i;
        }
        if (++b == buckets) b = 0;
    }
    *full = 1;
    return home * WAYS + least_worked(&tags[home]);
}

/* A zeroed table of `buckets` buckets, on huge pages where the kernel allows; 0 if it cannot be mapped. */
static int map_table(u64 buckets, Tags **tags, Entry **table, void **mapping, size_t *mapped) {
    size_t bytes = (size_t)buckets * BUCKET_BYTES, length = bytes + HUGE_PAGE;
    void *at = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (at == MAP_FAILED) return 0;
    uintptr_t start = ((uintptr_t)at + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
#ifdef MADV_HUGEPAGE
    madvise((void *)start, (bytes + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1), MADV_HUGEPAGE);
#endif
    *tags = (Tags *)start;
    *table = (Entry *)(start + buckets * sizeof(Tags));
    *mapping = at, *mapped = length;
    return 1;
}

static void unmap_table(Search *s) {
    if (s->mapping) munmap(s->mapping, s->mapped);
    s->mapping = NULL, s->tags = NULL, s->table = NULL;
}

/* Fault every page of a new, still empty table in now (a first touch inside the search costs a
   page fault): a write, so each page is the table's own at once. */
static void touch(Tags *tags, u64 buckets) {
    volatile char *at = (volatile char *)tags, *end = at + buckets * BUCKET_BYTES;
    for (; at < end; at += 4096) *at = 0;
}

/* Move the table to `buckets` buckets (its entries placed anew; the cap must allow it), faulted
   in first with `fault_in`; 0 if it cannot be mapped. */
static int resize(Search *s, u64 buckets, int fault_in) {
    Tags *tags;
    Entry *table;
    void *mapping;
    size_t mapped;
    if (!map_table(buckets, &tags, &table, &mapping, &mapped)) return 0;
    if (fault_in) touch(tags, buckets);
    for (u64 i = 0; i < s->slots; i++) {
        Entry *old = &s->table[i];
        if (!old->work) continue;
        int full;
        u64 hash = key_hash(&old->key), at = free_slot(tags, buckets, WINDOW, hash, &full);
        if (full) s->used--, s->evictions++;
        *tag_at(tags, at) = tag_word(tag_of(hash), old->work);
        table[at] = *old;
    }
    unmap_table(s);
    s->tags = tags, s->table = table, s->mapping = mapping, s->mapped = mapped;
    s->buckets = buckets, s->slots = buckets * WAYS, s->window = WINDOW; /* every entry placed anew within WINDOW */
    return 1;
}

/* The most buckets the table may move to: its cap, and what leaves the old copy and the new one,
   both mapped while a resize places the entries anew, within GROWTH_HEADROOM times the cap (the
   memory a budget leaves the table, native.py table_mb_for). A new table starts at its cap halved
   as often as it stays at least MIN_BUCKETS (Search_init), so doubling reaches the cap from half
   of it; a table sized otherwise and already past half its cap (a resumed one, reserved at 0.7 of
   it) stops short of the cap rather than peak at 1.7 times it, past the budget (12x4: 22,458 MB
   against --max-memory 20000). */
static u64 buckets_allowed(const Search *s, u64 bytes) {
    u64 limit = s->table_cap / GROWTH_HEADROOM_DEN * GROWTH_HEADROOM_NUM, now = s->buckets * BUCKET_BYTES;
    u64 room = limit > now ? limit - now : 0;
    return min_u64(min_u64(bytes, s->table_cap), room) / BUCKET_BYTES;
}

static int grow(Search *s) { /* double the table, or take the cap; 0 if it stays */
    u64 buckets = buckets_allowed(s, s->buckets * 2 * BUCKET_BYTES);
    if (buckets <= s->buckets) return 0;
    if (resize(s, buckets, 0)) return 1;
    s->table_cap = s->buckets * BUCKET_BYTES; /* out of memory or address space: the cap is here, or every new key would ask again */
    return 0;
}

/* Size the table for `bytes` (within the cap) now, and fault it in: a search that knows its
   budget pays no table growth and no page faults inside it. */
static int reserve(Search *s, u64 bytes) {
    u64 buckets = buckets_allowed(s, bytes);
    if (buckets <= s->buckets) return 1;
    return resize(s, buckets, 1); /* 0: the table stays and grows as the search needs */
}

static void store(Search *s, u64 hash, const DfpnKey *key, u64 pn, u64 dn, u64 work) {
    if (s->shared) {
        shared_store(s, hash, key, pn, dn, work);
        return;
    }
    Entry *slot = find(s, hash, key);
    if (slot) {
        if (slot->work < work) {
            u64 at = (u64)(slot - s->table);
            slot->work = work;
            *tag_at(s->tags, at) = tag_word(tag_of(hash), work);
        }
    } else {
        int full;
        if (4 * (s->used + 1) > 3 * s->slots) grow(s);
        u64 at = free_slot(s->tags, s->buckets, s->window, hash, &full);
        if (full && 2 * s->used > s->slots && grow(s)) at = free_slot(s->tags, s->buckets, s->window, hash, &full);
        if (full) s->evictions++, s->window = EVICTING_WINDOW;
        else s->used++;
        *tag_at(s->tags, at) = tag_word(tag_of(hash), work);
        slot = &s->table[at];
        slot->key = *key;
        slot->work = work;
    }
    slot->pn = pn;
    slot->dn = dn;
}

/* Ask for the entry a position will be stored in: its own, or the slot a new key takes; the write
   at its first turn then does not wait for memory. Called after its children's lines of tags are
   asked for, so the probe of its own line (asked for on entry: by a later visit it has often left
   the cache) waits together with them, not before them: 5-10 % less time on a ply-30 uttt search
   at the cap (docs/benchmarks.md). A serial table only (only stores move its tags, and none
   comes between). */
static void prefetch_entry(const Search *s, u64 hash, const DfpnKey *key) {
    if (s->shared) return;
    const Entry *e = find(s, hash, key);
    if (!e) {
        int full;
        e = &s->table[free_slot(s->tags, s->buckets, s->window, hash, &full)];
    }
    __builtin_prefetch(e, 1);
    __builtin_prefetch((const char *)e + sizeof(Entry) - 1, 1);
}

/* ---------------------------------------------------------------- df-pn */

static void halt(Search *s, Stop status) {
    s->status = status;
    longjmp(s->stop, 1);
}

/* The numbers of child `c` at `ply` from the search's root; one the table does not hold starts
   from the family's estimate (1/1 without one, or with `ply` -1: a position asked about alone). */
static void child_numbers(const Search *s, const DfpnChild *c, int ply, u64 *pn, u64 *dn) {
    if (c->result != DFPN_OPEN) { /* the terminal's value for the claim */
        int holds = c->result == s->prover || (c->result == 0 && s->no_loss);
        *pn = holds ? 0 : INF;
        *dn = holds ? INF : 0;
    } else if (s->within >= 0 && ply >= s->within) { /* the bound: an end that is not a loss */
        *pn = s->no_loss ? 0 : INF;
        *dn = s->no_loss ? INF : 0;
    } else if (!lookup(s, c->hash, &c->key, pn, dn)) {
        *pn = *dn = 1;
        if (s->family->estimate && ply >= 0)
            s->family->estimate(s->kernel, c->state, s->prover, s->no_loss, s->within < 0 ? -1 : s->within - ply, pn, dn);
    }
}

/* After Python raised: Ctrl-C ends the search as "interrupted" (as solver/search/pns.py), anything else fails it. */
static Stop interruption(Search *s) {
    if (!PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) return FAILED;
    PyErr_Clear();
    return INTERRUPTED;
}

static void report(Search *s, double mb, double t) {
    u64 pn = 1, dn = 1;
    lookup(s, s->root_hash, &s->root_key, &pn, &dn);
    PyObject *r = PyObject_CallFunction(s->progress, "KKKKdd", (unsigned long long)s->nodes, (unsigned long long)pn,
                                        (unsigned long long)dn, (unsigned long long)s->used, t - s->started, mb);
    if (!r) halt(s, interruption(s));
    Py_DECREF(r);
}

static void set_stop(Shared *sh, Stop why) {
    int running = 0;
    __atomic_compare_exchange_n(&sh->stop, &running, (int)why, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/* A thread's new entries and evictions into the shared counts (the supervisor sizes the table by them). */
static void flush(Search *s) {
    __atomic_fetch_add(&s->shared->used, s->used, __ATOMIC_RELAXED);
    __atomic_fetch_add(&s->shared->evictions, s->evictions, __ATOMIC_RELAXED);
    s->used = s->evictions = 0;
}

/* Wait while the supervisor grows the table (it then updates this thread's view of it). */
static void park(Search *s) {
    Shared *sh = s->shared;
    pthread_mutex_lock(&sh->mutex);
    sh->parked++;
    pthread_cond_signal(&sh->wake);
    while (sh->pause) pthread_cond_wait(&sh->resume, &sh->mutex);
    sh->parked--;
    pthread_mutex_unlock(&sh->mutex);
}

/* A thread's tick: every CHECK_EVERY nodes it flushes its counts, parks if asked, stops if another
   thread or the supervisor stopped the search, and takes its next nodes from the shared budget
   (so the threads' nodes together never pass it). It holds no bucket, so it may park here. */
static void shared_tick(Search *s) {
    if (s->nodes == s->allowed) {
        Shared *sh = s->shared;
        flush(s);
        if (LOAD(sh->pause)) park(s);
        int why = __atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE);
        if (why) halt(s, (Stop)why);
        u64 got = LOAD(sh->granted), give;
        do {
            give = got < sh->limit ? min_u64(CHECK_EVERY, sh->limit - got) : 0;
        } while (give && !__atomic_compare_exchange_n(&sh->granted, &got, got + give, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
        if (!give) {
            set_stop(sh, NODE_BUDGET);
            halt(s, NODE_BUDGET);
        }
        s->allowed = s->nodes + give;
    }
    s->nodes++;
}

/* Count one expansion; now and then enforce the budgets, see Ctrl-C and report progress. */
static void tick(Search *s) {
    if (s->shared) {
        shared_tick(s);
        return;
    }
    if (s->nodes >= s->limit_nodes) halt(s, NODE_BUDGET);
    if (++s->nodes % CHECK_EVERY) return;
    double t = now(), mb = rss_mb();
    if (mb > s->peak_mb) s->peak_mb = mb;
    if (PyErr_CheckSignals() < 0) halt(s, interruption(s));
    if (mb > s->limit_mb) halt(s, MEMORY_BUDGET);
    if (t >= s->deadline) halt(s, TIME_BUDGET);
    if (s->progress && t >= s->next_report) {
        s->next_report = t + s->report_every;
        report(s, mb, t);
    }
}

/* The children of a prover's position that the policy names, in its order; -1 where it names
   none. A policy that raises, or names a move that is not legal, fails the search. */
static int policy_children(Search *s, const void *state, DfpnChild *out) {
    PyObject *position = s->family->export(s->kernel, state);
    PyObject *named = position ? PyObject_CallOneArg(s->policy, position) : NULL;
    Py_XDECREF(position);
    PyObject *codes = named && named != Py_None ? PySequence_Fast(named, "a policy returns move codes or None") : NULL;
    Py_XDECREF(named);
    if (!codes) {
        if (PyErr_Occurred()) halt(s, interruption(s));
        return -1; /* None */
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(codes);
    int count = n ? s->family->legal(s->kernel, state, s->legal) : 0, taken = 0;
    for (Py_ssize_t i = 0; i < n && taken >= 0; i++) {
        long code = PyLong_AsLong(PySequence_Fast_GET_ITEM(codes, i));
        int at = 0;
        while (at < count && s->legal[at].move != code) at++;
        if (at == count) taken = -1;
        else out[taken++] = s->legal[at];
    }
    Py_DECREF(codes);
    if (taken < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "the policy names a move that is not legal");
        halt(s, FAILED);
    }
    for (int i = 0; i < taken; i++) s->family->key(s->kernel, out[i].state, &out[i].key);
    return n ? taken : -1;
}

/* The length of the record of the family's closure of `state` (the prover to move, at `ply` from
   the search's root) written to `out`, or 0; a closure that raises fails the search. `written`:
   the record goes into the certificate (the strategy walk), else only whether it closes matters. */
static int closure(Search *s, const void *state, int ply, int written, unsigned char *out) {
    int length = s->family->close(s->kernel, state, s->prover, s->no_loss, s->within < 0 ? -1 : s->within - ply, written, out);
    if (length > DFPN_CLOSURE_BYTES) {
        if (!s->shared) /* a thread holds no GIL: the supervisor says it failed */
            PyErr_Format(PyExc_SystemError, "family '%s': a closure's record of %d bytes", s->family->name, length);
        length = -1;
    }
    if (length < 0) halt(s, s->shared ? FAILED : interruption(s));
    return length;
}

/* A win claim's refutation: at a position where the prover's opponent moves, the family's closure
   for the opponent's no-loss claim there (a pairing blocking every line left to the prover) proves
   the prover cannot win: the position is disproved. No certificate carries it (a proof never
   holds a disproved position), so its record is dropped; a closure that raises fails the search. */
static int refuted(Search *s, const void *state, int ply) {
    unsigned char record[DFPN_CLOSURE_BYTES];
    int length = s->family->close(s->kernel, state, 3 - s->prover, 1, s->within < 0 ? -1 : s->within - ply, 0, record);
    if (length < 0) halt(s, s->shared ? FAILED : interruption(s));
    return length > 0;
}

static int expand(Search *s, const void *state, DfpnChild *out) {
    int count = -1;
    if (s->policy && s->family->mover(s->kernel, state) == s->prover) count = policy_children(s, state, out);
    if (count < 0) count = s->family->expand(s->kernel, state, s->prover, out);
    for (int i = 0; i < count; i++) out[i].hash = key_hash(&out[i].key);
    return count;
}

static void prefetch_children(const Search *s, const DfpnChild *children, int count) {
    for (int i = 0; i < count; i++)
        if (children[i].result == DFPN_OPEN) prefetch(s, children[i].hash);
}

/* Threads: where this thread's search is now (its path's hash at `depth`, 0 when it left it), for
   the others' choice. A thread's path is 0 below the position it searches. */
static void publish(Search *s, int depth, u64 hash) { STORE(s->shared->path[s->thread][depth], hash); }

/* The hashes of the positions the other threads search at `depth` now, into `out`; how many. Read
   once per turn, not per child: another thread writes its path all the time, so each read of it
   is likely a cache miss (one line a thread). */
static int others_at(const Search *s, int depth, u64 *out) {
    const Shared *sh = s->shared;
    int n = 0;
    for (int t = 0; t < sh->threads; t++)
        if (t != s->thread) {
            u64 hash = LOAD(sh->path[t][depth]);
            if (hash) out[n++] = hash;
        }
    return n;
}

/* Threads: this thread has just solved the position `hash` at `depth`; a thread whose path passes
   through it is searching below a solved position, and is told to return up to it (its `cut`, the
   least such depth kept). Returning early is always sound (it returns the true numbers it has, as
   at a threshold), so a late or needless cut costs work, never a verdict. */
static void cut_others(const Search *s, int depth, u64 hash) {
    Shared *sh = s->shared;
    for (int t = 0; t < sh->threads; t++)
        if (t != s->thread && LOAD(sh->path[t][depth]) == hash) {
            u64 *cut = &sh->cut[(size_t)t * CUT_STRIDE], was = LOAD(*cut);
            while ((!was || (u64)depth + 1 < was)
                   && !__atomic_compare_exchange_n(cut, &was, (u64)depth + 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
        }
}

/* Threads: whether another thread solved a position above `depth` on this thread's path (it then
   returns, level by level, to that position, whose next turn finds it solved); a cut at or above
   a depth it has come back to is cleared. */
static int cut_above(const Search *s, int depth) {
    u64 *cut = &s->shared->cut[(size_t)s->thread * CUT_STRIDE], at = LOAD(*cut);
    if (!at) return 0;
    if (at - 1 < (u64)depth) return 1;
    __atomic_compare_exchange_n(cut, &at, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return 0;
}

/* Expand `state` until its pn reaches pn_limit or its dn reaches dn_limit, or it is solved;
   its numbers then are *pn, *dn.

   With threads (s->shared), three things differ, as in Kaneko's parallel df-pn and SPDFPN: a
   position another thread solved is returned at once (checked at every turn after the first, and
   on entry where a closure would be asked for, which looks the entry up anyway; elsewhere the
   first turn sees it in the children's numbers, but for the position's closure); a thread below
   a position another thread solved returns up to it (`cut_others`, `cut_above`: else it went on
   until its thresholds ran out, under a position already solved); and at a position where the
   prover's opponent moves (an AND node), a child another thread is searching now (on its
   published path) looks harder than it is when choosing -- its minimised number times
   (1 + spread/4), plus 1, per such thread: a virtual proof number -- so the threads spread over
   the children rather than all follow one path. Only there: a proof needs every child of an AND
   node, so a thread sent to another child does work the proof needs, while at the prover's own
   positions it would search a move the proof may never use (on a ply-30 uttt position, spreading
   at both kinds of node cost 1.58x the serial nodes, at AND nodes only 1.01x: docs/scaling.md).
   A claim that fails would need the reverse; on one disproved uttt position this rule took
   1.05-1.13x the serial nodes, spreading everywhere 1.04x. The numbers
   stored and returned are never virtual. The children's numbers are still read from the table
   once per visit: re-reading them at every turn (to see the other threads' work sooner) cost
   more CPU per node and no fewer nodes on mnk:4,5,4 player 2 (docs/scaling.md). */
static void mid(Search *s, const void *state, u64 hash, const DfpnKey *key, u64 pn_limit, u64 dn_limit, int depth,
                u64 *node_pn, u64 *node_dn) {
    tick(s);
    prefetch(s, hash); /* probed in prefetch_entry, after the children's lines are asked for */
    u64 first = s->nodes;
    Shared *sh = s->shared;
    int or_node = s->family->mover(s->kernel, state) == s->prover;
    int asks = s->closures && (or_node || !s->no_loss), seen = 0; /* asks: a closure or refutation, if the position is new */
    if (asks) {
        seen = lookup(s, hash, key, node_pn, node_dn);
        if (sh && seen && (!*node_pn || !*node_dn)) return; /* another thread solved it */
    }
    if (sh) publish(s, depth, hash);
    if (or_node && asks && !seen && closure(s, state, depth, 0, s->record)) {
        *node_pn = 0;
        *node_dn = INF;
        store(s, hash, key, 0, INF, 1);
        return;
    }
    if (!or_node && asks && !seen && refuted(s, state, depth)) {
        *node_pn = INF;
        *node_dn = 0;
        store(s, hash, key, INF, 0, 1);
        return;
    }
    DfpnChild *children = s->children + (size_t)depth * s->max_moves;
    int count = expand(s, state, children);
    if (!count) { /* the prover has no candidate: every move loses (hooks prune only losers) */
        *node_pn = or_node ? INF : 0;
        *node_dn = or_node ? 0 : INF;
        store(s, hash, key, *node_pn, *node_dn, 1);
        return;
    }
    /* The children's numbers are read from the table once: below a child the search meets only
       positions with more moves played (dfpn.h), never a sibling, so between the child searched
       and its transpositions among the siblings (updated below) the table's numbers stay these --
       unless an entry is evicted, when the table would say (1, 1) and these say more. */
    u64 *known = s->known + (size_t)depth * s->max_moves * 2;
    prefetch_children(s, children, count);
    prefetch_entry(s, hash, key);
    for (int i = 0; i < count; i++) child_numbers(s, &children[i], depth + 1, &known[2 * i], &known[2 * i + 1]);
    for (int turn = 0;; turn++) {
        if (sh && turn) /* another thread solved it meanwhile */
            if (lookup(s, hash, key, node_pn, node_dn) && (!*node_pn || !*node_dn)) return;
        u64 best = INF + 1, second = INF + 1, least = INF + 1, total = 0, pn, dn, theirs[MAX_THREADS];
        int chosen = 0, others = sh ? others_at(s, depth + 1, theirs) : 0;
        for (int i = 0; i < count; i++) {
            pn = known[2 * i], dn = known[2 * i + 1];
            u64 near = or_node ? pn : dn, far = or_node ? dn : pn; /* minimised, summed */
            total = min_u64(INF, total + far);
            if (near < least) least = near;
            if (others && !or_node && near && near < INF && children[i].result == DFPN_OPEN) {
                u64 busy = 0;
                for (int t = 0; t < others; t++) busy += theirs[t] == children[i].hash;
                if (busy) near = min_u64(INF - 1, near + busy * (1 + near * (u64)sh->spread / 4));
            }
            if (near < best) {
                second = best;
                best = near;
                chosen = i;
            } else if (near < second) {
                second = near;
            }
        }
        *node_pn = or_node ? least : total;
        *node_dn = or_node ? total : least;
        store(s, hash, key, *node_pn, *node_dn, s->nodes - first + 1);
        if (sh && (least == 0 || least >= INF)) cut_others(s, depth, hash);
        if (*node_pn >= pn_limit || *node_dn >= dn_limit || least == 0 || least >= INF) return;
        if (sh && cut_above(s, depth)) return;
        pn = known[2 * chosen], dn = known[2 * chosen + 1];
        u64 widened = second + 1 + second / 4; /* the 1+epsilon trick: fewer returns to the parent */
        if (best != least && (or_node ? pn >= min_u64(pn_limit, widened) : dn >= min_u64(dn_limit, widened))) {
            /* the virtual choice could not move: the least child, as without threads */
            second = INF + 1;
            chosen = 0;
            while (known[2 * chosen + !or_node] != least) chosen++;
            for (int i = 0; i < count; i++)
                if (i != chosen && known[2 * i + !or_node] < second) second = known[2 * i + !or_node];
            pn = known[2 * chosen], dn = known[2 * chosen + 1];
            widened = second + 1 + second / 4;
        }
        DfpnChild *c = &children[chosen];
        if (or_node)
            mid(s, c->state, c->hash, &c->key, min_u64(pn_limit, widened), min_u64(INF, dn_limit - total + dn), depth + 1, &pn, &dn);
        else
            mid(s, c->state, c->hash, &c->key, min_u64(INF, pn_limit - total + pn), min_u64(dn_limit, widened), depth + 1, &pn, &dn);
        if (sh) publish(s, depth + 1, 0);
        for (int i = 0; i < count; i++)
            if (children[i].result == DFPN_OPEN && children[i].hash == c->hash && same_key(&children[i].key, &c->key))
                known[2 * i] = pn, known[2 * i + 1] = dn;
    }
}

/* (pn, dn) of a position as far as the table knows: exact at terminals, 1/1 if unseen. */
static void numbers(const Search *s, const void *state, u64 *pn, u64 *dn) {
    int result = s->family->result(s->kernel, state);
    DfpnChild c;
    c.result = result;
    if (result == DFPN_OPEN) {
        s->family->key(s->kernel, state, &c.key);
        c.hash = key_hash(&c.key);
    }
    child_numbers(s, &c, -1, pn, dn);
}

/* ---------------------------------------------------------------- the proof's canonical traversal */

static int ready(Search *self);

/* The positions the traversal has seen, by exact identity: open addressing, doubled at 3/4 full;
   `taken` marks used slots (an identity may be all zeros). */
typedef struct {
    DfpnKey *keys;
    unsigned char *taken;
    u64 slots, used;
} Seen;

static int seen_init(Seen *seen, u64 slots) {
    seen->slots = slots, seen->used = 0;
    seen->keys = malloc(slots * sizeof(DfpnKey));
    seen->taken = calloc(slots, 1);
    return seen->keys && seen->taken;
}

static void seen_free(Seen *seen) {
    free(seen->keys);
    free(seen->taken);
}

static void seen_put(Seen *seen, const DfpnKey *key) { /* `key` is known to be absent */
    u64 i = key_hash(key) & (seen->slots - 1);
    while (seen->taken[i]) i = (i + 1) & (seen->slots - 1);
    seen->taken[i] = 1;
    seen->keys[i] = *key;
    seen->used++;
}

/* Whether `key` was added. */
static int seen_has(const Seen *seen, const DfpnKey *key) {
    for (u64 i = key_hash(key) & (seen->slots - 1); seen->taken[i]; i = (i + 1) & (seen->slots - 1))
        if (same_key(&seen->keys[i], key)) return 1;
    return 0;
}

/* Add `key`; 1 if it was new, 0 if seen before, -1 out of memory. */
static int seen_add(Seen *seen, const DfpnKey *key) {
    for (u64 i = key_hash(key) & (seen->slots - 1); seen->taken[i]; i = (i + 1) & (seen->slots - 1))
        if (same_key(&seen->keys[i], key)) return 0;
    if (4 * (seen->used + 1) > 3 * seen->slots) {
        Seen bigger;
        if (!seen_init(&bigger, seen->slots * 2)) {
            seen_free(&bigger);
            return -1;
        }
        for (u64 i = 0; i < seen->slots; i++)
            if (seen->taken[i]) seen_put(&bigger, &seen->keys[i]);
        seen_free(seen);
        *seen = bigger;
    }
    seen_put(seen, key);
    return 1;
}

typedef struct {
    _Alignas(8) unsigned char state[DFPN_STATE_BYTES];
    int ply;
} Pending;

/* The move code of the first candidate of `state` whose child is proved, or -1. */
static int proved_code(Search *s, const void *state, int ply, DfpnChild *buffer) {
    int count = expand(s, state, buffer);
    for (int i = 0; i < count; i++) {
        u64 pn, dn;
        child_numbers(s, &buffer[i], ply + 1, &pn, &dn);
        if (pn == 0) return buffer[i].move;
    }
    return -1;
}

/* The move code of the first candidate of `state` that a search of its own proves, or -1: where
   the table keeps no proved child even after the position's own search (its last store may evict
   the entry of the child it has just proved, in a table evicting at every store), the child's
   search answers, not its entry. */
static int searched_code(Search *s, const void *state, int ply, DfpnChild *buffer) {
    int count = expand(s, state, buffer);
    for (int i = 0; i < count; i++) {
        DfpnChild *c = &buffer[i];
        u64 pn, dn;
        child_numbers(s, c, ply + 1, &pn, &dn);
        if (pn && dn) mid(s, c->state, c->hash, &c->key, INF, INF, ply + 1, &pn, &dn); /* open, so not an end */
        if (pn == 0) return c->move;
    }
    return -1;
}

/* The prover's move at `state`, as an index into its legal moves `legal[0..count)`: the move
   proved_move gives, the position searched again when eviction lost its proved child, and its
   children one by one if that search's own stores evicted it again. */
static int chosen_index(Search *s, const void *state, int ply, const DfpnChild *legal, int count, DfpnChild *buffer) {
    int code = proved_code(s, state, ply, buffer);
    if (code < 0) {
        DfpnKey key;
        u64 pn, dn;
        s->family->key(s->kernel, state, &key);
        mid(s, state, key_hash(&key), &key, INF, INF, ply, &pn, &dn);
        code = proved_code(s, state, ply, buffer);
        if (code < 0 && pn == 0) code = searched_code(s, state, ply, buffer);
    }
    for (int i = 0; i < count && code >= 0; i++)
        if (legal[i].move == code) return i;
    return -1;
}

/* walked(positions); 0 if it raised. */
static int report_walked(PyObject *walked, u64 positions) {
    PyObject *r = PyObject_CallFunction(walked, "K", (unsigned long long)positions);
    Py_XDECREF(r);
    return r != NULL;
}

/* solver/search/prooftree.py canonical_strategy, with `choose` the proved move and `close` the
   family's closure (when the search takes closures): the same traversal, so the same certificate.
   `images`: the symmetries (each a bytes, cell i going to byte i) under which a prover's position
   mapped to another one seen is named that image. Returns (moves as bytes, positions, terminals,
   depth, the closures' records as a list of bytes, the images' symmetry indices as bytes).
   `walked`: called with the positions walked so far every WALK_REPORT of them and once at the
   end (a proof of millions of positions takes hours to walk). */
#define WALK_REPORT 65536
static PyObject *Search_strategy(Search *self, PyObject *args) {
    PyObject *position, *symmetries = NULL, *walked = NULL;
    int ply = 0; /* the position's ply from the search's root: a bounded claim's bound counts from there */
    int blocks = 0; /* list only the blocks at the opponent's positions facing a line (the family's `listed`) */
    if (!ready(self) || !PyArg_ParseTuple(args, "O|iOpO", &position, &ply, &symmetries, &blocks, &walked)) return NULL;
    if (walked == Py_None) walked = NULL;
    if (blocks && !self->family->listed) {
        PyErr_Format(PyExc_ValueError, "family '%s' lists every reply", self->family->name);
        return NULL;
    }
    Py_ssize_t nsym = symmetries && symmetries != Py_None ? PySequence_Size(symmetries) : 0;
    if (nsym < 0) return NULL;
    if (nsym && !self->family->image) {
        PyErr_Format(PyExc_ValueError, "family '%s' names no images", self->family->name);
        return NULL;
    }
    if (nsym > 255) {
        PyErr_SetString(PyExc_ValueError, "at most 255 symmetries name images (one byte each)");
        return NULL;
    }
    Pending root;
    if (self->family->parse(self->kernel, position, root.state) < 0) return NULL;
    root.ply = ply;
    size_t stack_cap = 1024, stack_len = 0, moves_cap = 1 << 16, moves_len = 0;
    Pending *stack = malloc(stack_cap * sizeof *stack);
    unsigned char *moves = malloc(moves_cap);
    DfpnChild *legal = malloc((size_t)self->max_moves * sizeof *legal);
    DfpnChild *buffer = malloc((size_t)self->max_moves * sizeof *buffer);
    Seen seen = {0};
    u64 terminals = 0, steps = 0;
    int depth = 0;
    PyObject *out = NULL, *records = PyList_New(0), *permutations = NULL;
    size_t images_cap = 1 << 12, images_len = 0;
    unsigned char *images = malloc(images_cap);
    const unsigned char **perm = calloc(nsym ? (size_t)nsym : 1, sizeof *perm);
    if (!records) goto done;
    if (nsym) {
        permutations = PySequence_Tuple(symmetries);
        if (!permutations) goto done;
        for (Py_ssize_t g = 0; g < nsym; g++) {
            PyObject *item = PyTuple_GET_ITEM(permutations, g);
            if (!PyBytes_Check(item)) {
                PyErr_SetString(PyExc_TypeError, "a symmetry is a bytes of cells");
                goto done;
            }
            perm[g] = (const unsigned char *)PyBytes_AS_STRING(item);
        }
    }
    if (!images || !perm) goto no_memory;
    if (!stack || !moves || !legal || !buffer || !seen_init(&seen, 1 << 16)) goto no_memory;
    stack[stack_len++] = root;
    self->limit_nodes = ~0ULL, self->limit_mb = 1e300, self->deadline = 1e300, self->progress = NULL;
    self->status = RUNNING;
    if (setjmp(self->stop)) { /* a search for an evicted proof stopped: Ctrl-C or a Python error */
        if (self->status == INTERRUPTED) PyErr_SetNone(PyExc_KeyboardInterrupt);
        goto done;
    }
    while (stack_len) {
        Pending at = stack[--stack_len];
        DfpnKey id;
        self->family->identity(self->kernel, at.state, &id);
        int added = seen_add(&seen, &id);
        if (added < 0) goto no_memory;
        if (!added) continue;
        if (++steps % WALK_REPORT == 0 && (PyErr_CheckSignals() < 0 || (walked && !report_walked(walked, seen.used))))
            goto done;
        if (at.ply > depth) depth = at.ply;
        if (self->family->result(self->kernel, at.state) != DFPN_OPEN) {
            terminals++;
            continue;
        }
        if (at.ply == self->within) continue; /* a bounded claim's leaf */
        int count = self->family->legal(self->kernel, at.state, legal);
        int pick = -1, push = count, closed = 0;
        if (self->family->mover(self->kernel, at.state) == self->prover) {
            int named = -1;
            for (Py_ssize_t g = 0; g < nsym && named < 0; g++) {
                DfpnKey other;
                self->family->image(self->kernel, at.state, perm[g], &other);
                if (!same_key(&other, &id) && seen_has(&seen, &other)) named = (int)g; /* never itself */
            }
            if (named >= 0) {
                if (moves_len == moves_cap) {
                    unsigned char *bigger = realloc(moves, moves_cap *= 2);
                    if (!bigger) goto no_memory;
                    moves = bigger;
                }
                if (images_len == images_cap) {
                    unsigned char *bigger = realloc(images, images_cap *= 2);
                    if (!bigger) goto no_memory;
                    images = bigger;
                }
                moves[moves_len++] = DFPN_IMAGE;
                images[images_len++] = (unsigned char)named;
                continue; /* the traversal does not go past an image */
            }
            int length = self->closures ? closure(self, at.state, at.ply, 1, self->record) : 0;
            if (length) {
                PyObject *record = PyBytes_FromStringAndSize((const char *)self->record, length);
                if (!record || PyList_Append(records, record) < 0) {
                    Py_XDECREF(record);
                    goto done;
                }
                Py_DECREF(record);
                closed = 1;
            } else {
                pick = chosen_index(self, at.state, at.ply, legal, count, buffer);
            }
            if (pick < 0 && !closed) {
                PyErr_SetString(PyExc_ValueError, "a position of the strategy is not proved");
                goto done;
            }
            if (moves_len == moves_cap) {
                unsigned char *bigger = realloc(moves, moves_cap *= 2);
                if (!bigger) goto no_memory;
                moves = bigger;
            }
            moves[moves_len++] = closed ? DFPN_CLOSE : (unsigned char)pick;
            if (closed) continue; /* the traversal does not go past a closure */
            push = 1;
        }
        else if (blocks && (self->within < 0 || at.ply + 2 <= self->within))
            push = count = self->family->listed(self->kernel, at.state, self->prover, legal, count);
        if (stack_len + (size_t)push > stack_cap) {
            Pending *bigger = realloc(stack, (stack_cap = 2 * (stack_cap + push)) * sizeof *stack);
            if (!bigger) goto no_memory;
            stack = bigger;
        }
        for (int i = count - 1; i >= 0; i--) /* reversed: the first move is taken first */
            if (pick < 0 || i == pick) {
                memcpy(stack[stack_len].state, legal[i].state, self->family->state_bytes);
                stack[stack_len++].ply = at.ply + 1;
            }
    }
    if (walked && !report_walked(walked, seen.used)) goto done;
    out = Py_BuildValue("y#KKiOy#", (const char *)moves, (Py_ssize_t)moves_len, (unsigned long long)seen.used,
                        (unsigned long long)terminals, depth, records, (const char *)images, (Py_ssize_t)images_len);
    goto done;
no_memory:
    PyErr_NoMemory();
done:
    free(stack);
    free(moves);
    free(legal);
    free(buffer);
    free(images);
    free((void *)perm);
    seen_free(&seen);
    Py_XDECREF(records);
    Py_XDECREF(permutations);
    return out;
}

/* ---------------------------------------------------------------- the Python type */

static void Search_dealloc(Search *self) {
    unmap_table(self);
    free(self->children);
    free(self->known);
    free(self->legal);
    Py_CLEAR(self->policy);
    Py_CLEAR(self->config);
    if (self->kernel) self->family->destroy(self->kernel);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Search_init(Search *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"family", "config", "prover", "no_loss", "table_bytes", "policy", "within", "closures", NULL};
    const char *name;
    PyObject *config, *policy = Py_None;
    int prover, no_loss, within = -1, closures = 0;
    unsigned long long table_bytes;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "sOipK|Oip", names, &name, &config, &prover, &no_loss, &table_bytes,
                                     &policy, &within, &closures))
        return -1;
    if (self->kernel) {
        PyErr_SetString(PyExc_RuntimeError, "Search is already initialised");
        return -1;
    }
    const DfpnFamily *family = NULL;
    for (int i = 0; dfpn_families[i]; i++)
        if (!strcmp(dfpn_families[i]->name, name)) family = dfpn_families[i];
    if (!family) {
        PyErr_Format(PyExc_ValueError, "no compiled kernel for family '%s'", name);
        return -1;
    }
    if (policy != Py_None && (!PyCallable_Check(policy) || !family->export)) {
        PyErr_Format(PyExc_ValueError, "family '%s' takes no policy, or the policy is not callable", name);
        return -1;
    }
    if (closures && !family->close) {
        PyErr_Format(PyExc_ValueError, "family '%s' has no compiled closure", name);
        return -1;
    }
    if (prover != 1 && prover != 2) {
        PyErr_SetString(PyExc_ValueError, "prover must be 1 or 2");
        return -1;
    }
    if (table_bytes < MIN_BUCKETS * BUCKET_BYTES) table_bytes = MIN_BUCKETS * BUCKET_BYTES;
    self->family = family;
    self->config = config;
    Py_INCREF(config);
    self->kernel = family->create(config);
    if (!self->kernel) return -1;
    self->prover = prover;
    self->no_loss = no_loss;
    self->within = within < 0 ? -1 : within;
    self->closures = closures;
    self->max_plies = family->max_plies(self->kernel);
    self->max_moves = family->max_moves(self->kernel);
    self->table_cap = table_bytes;
    u64 start = table_bytes / BUCKET_BYTES; /* the cap halved down to below twice MIN_BUCKETS: doubling lands on it */
    while (start / 2 >= MIN_BUCKETS) start /= 2;
    if (map_table(start, &self->tags, &self->table, &self->mapping, &self->mapped))
        self->buckets = start, self->slots = start * WAYS;
    self->window = WINDOW;
    self->children = malloc((size_t)(self->max_plies + 1) * self->max_moves * sizeof(DfpnChild));
    self->known = malloc((size_t)(self->max_plies + 1) * self->max_moves * 2 * sizeof(u64));
    self->legal = malloc((size_t)self->max_moves * sizeof(DfpnChild));
    if (policy != Py_None) {
        self->policy = policy;
        Py_INCREF(policy);
    }
    if (!self->table || !self->children || !self->known || !self->legal) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static int ready(Search *self) {
    if (self->kernel) return 1;
    PyErr_SetString(PyExc_RuntimeError, "Search is not initialised");
    return 0;
}

/* Run mid from `state` under the budgets set in `self`; the root's numbers or a stop status.
   With `again`, a solved root is expanded anew: its children's entries may have been evicted,
   and proved_move needs them back (as solver/search/pns.py's proved_move calls _mid). */
static void run(Search *self, const void *state, u64 *pn, u64 *dn, int again, u64 pn_limit, u64 dn_limit) {
    self->family->key(self->kernel, state, &self->root_key);
    self->root_hash = key_hash(&self->root_key);
    numbers(self, state, pn, dn);
    if ((*pn && *dn) || (again && self->family->result(self->kernel, state) == DFPN_OPEN))
        mid(self, state, self->root_hash, &self->root_key, pn_limit, dn_limit, 0, pn, dn);
}

/* ---------------------------------------------------------------- threads: one table, N searches

   search(..., threads=N): N POSIX threads each run mid from the root over this Search's one table
   (the table section above: a sequence lock per bucket), each with its own kernel (a kernel may keep
   scratch, so none is shared), path buffers and node count, none of them touching Python; the
   calling thread releases the GIL and supervises: every SUPERVISE_MS it looks at the clock, the
   memory, Ctrl-C and progress, and grows the table (every thread parked at its tick) when it is
   more than 3/4 full. The first thread whose mid returns at the root (solved, or at the root's
   thresholds) stops the others; so do a budget and Ctrl-C. The proof is then in the table, and
   `strategy`, `proved_move` and `dump` read it as after a serial search. */
#define SUPERVISE_MS 20


typedef struct {
    Search *s;
    _Alignas(8) unsigned char state[DFPN_STATE_BYTES];
    u64 pn_limit, dn_limit;
} Job;

static void *thread_main(void *arg) {
    Job *job = arg;
    Search *s = job->s;
    Shared *sh = s->shared;
    u64 pn, dn;
    if (!setjmp(s->stop)) {
        mid(s, job->state, s->root_hash, &s->root_key, job->pn_limit, job->dn_limit, 0, &pn, &dn);
        set_stop(sh, SETTLED);
    } else if (s->status == FAILED) {
        set_stop(sh, FAILED);
    }
    flush(s);
    pthread_mutex_lock(&sh->mutex);
    sh->exited++;
    pthread_cond_signal(&sh->wake);
    pthread_mutex_unlock(&sh->mutex);
    return NULL;
}

/* The threads' new entries and evictions into the Search's own counts (the supervisor only). */
static void collect(Search *self) {
    self->used += __atomic_exchange_n(&self->shared->used, 0, __ATOMIC_RELAXED);
    self->evictions += __atomic_exchange_n(&self->shared->evictions, 0, __ATOMIC_RELAXED);
}

/* Double the table while every thread that still runs is parked; their views follow it. */
static void grow_parked(Search *self, Search **views, int n) {
    Shared *sh = self->shared;
    pthread_mutex_lock(&sh->mutex);
    sh->pause = 1;
    while (sh->parked + sh->exited < n) pthread_cond_wait(&sh->wake, &sh->mutex);
    collect(self);
    self->shared = NULL; /* resize's own stores are the only ones now */
    if (grow(self)) {
        for (int t = 0; t < n; t++)
            views[t]->tags = self->tags, views[t]->table = self->table, views[t]->buckets = self->buckets,
            views[t]->slots = self->slots;
    }
    self->shared = sh;
    sh->pause = 0;
    pthread_cond_broadcast(&sh->resume);
    pthread_mutex_unlock(&sh->mutex);
}

/* With the GIL: a Python error (Ctrl-C, a progress callback that raised) as a stop. */
static Stop supervise_python(Search *self, double mb, double t, u64 nodes) {
    if (PyErr_CheckSignals() < 0) return interruption(self);
    if (self->progress && t >= self->next_report) {
        self->next_report = t + self->report_every;
        u64 pn = 1, dn = 1, kept = self->nodes;
        lookup(self, self->root_hash, &self->root_key, &pn, &dn);
        self->nodes = nodes;
        PyObject *r = PyObject_CallFunction(self->progress, "KKKKdd", (unsigned long long)nodes, (unsigned long long)pn,
                                            (unsigned long long)dn, (unsigned long long)self->used, t - self->started, mb);
        self->nodes = kept;
        if (!r) return interruption(self);
        Py_DECREF(r);
    }
    return RUNNING;
}

static void free_views(Search **views, int n) {
    for (int t = 0; t < n; t++) {
        if (!views[t]) continue;
        if (views[t]->kernel) views[t]->family->destroy(views[t]->kernel);
        free(views[t]->children);
        free(views[t]->known);
        free(views[t]);
    }
    free(views);
}

/* Run N threads from `state` under the budgets set in `self`; 0, or -1 with a Python exception
   (a thread could not start, a kernel could not be made, a thread failed). self->status as a
   serial search leaves it. */
static int run_threads(Search *self, const void *state, int n, u64 pn_limit, u64 dn_limit) {
    Shared sh = {0};
    Search **views = calloc(n, sizeof *views);
    Job *jobs = calloc(n, sizeof *jobs);
    pthread_t *ids = calloc(n, sizeof *ids);
    int started = 0, failed = 0;
    sh.threads = n, sh.spread = self->spread;
    sh.limit = self->limit_nodes - self->nodes;
    sh.path_stride = self->max_plies + 2;
    sh.path = calloc(n, sizeof *sh.path);
    sh.cut = aligned_alloc(64, (size_t)n * CUT_STRIDE * sizeof(u64));
    if (sh.cut) memset(sh.cut, 0, (size_t)n * CUT_STRIDE * sizeof(u64));
    pthread_mutex_init(&sh.mutex, NULL);
    pthread_cond_init(&sh.wake, NULL);
    pthread_cond_init(&sh.resume, NULL);
    if (!views || !jobs || !ids || !sh.path || !sh.cut) goto no_memory;
    self->family->key(self->kernel, state, &self->root_key);
    self->root_hash = key_hash(&self->root_key);
    for (int t = 0; t < n; t++) {
        Search *v = views[t] = malloc(sizeof *v);
        if (!v) goto no_memory;
        memcpy(v, self, sizeof *v);
        v->kernel = NULL, v->children = NULL, v->known = NULL, v->legal = NULL, v->policy = NULL, v->progress = NULL;
        v->nodes = v->allowed = v->used = v->evictions = 0;
        v->shared = &sh, v->thread = t, v->status = RUNNING;
        v->kernel = self->family->create(self->config);
        if (!v->kernel) goto fail;
        v->children = malloc((size_t)(v->max_plies + 1) * v->max_moves * sizeof(DfpnChild));
        v->known = malloc((size_t)(v->max_plies + 1) * v->max_moves * 2 * sizeof(u64));
        /* each thread's path on cache lines of its own: the others read it, it writes it */
        sh.path[t] = aligned_alloc(64, ((size_t)sh.path_stride * sizeof(u64) + 63) / 64 * 64);
        if (!v->children || !v->known || !sh.path[t]) goto no_memory;
        memset(sh.path[t], 0, (size_t)sh.path_stride * sizeof(u64));
        jobs[t].s = v, jobs[t].pn_limit = pn_limit, jobs[t].dn_limit = dn_limit;
        memcpy(jobs[t].state, state, self->family->state_bytes);
    }
    self->shared = &sh;
    Py_BEGIN_ALLOW_THREADS
    for (; started < n; started++)
        if (pthread_create(&ids[started], NULL, thread_main, &jobs[started])) break;
    if (started < n) {
        set_stop(&sh, FAILED);
        pthread_mutex_lock(&sh.mutex);
        sh.exited += n - started; /* never started */
        pthread_mutex_unlock(&sh.mutex);
    }
    double next_python = 0;
    for (;;) {
        pthread_mutex_lock(&sh.mutex);
        if (sh.exited < n) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += SUPERVISE_MS * 1000000L;
            if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
            pthread_cond_timedwait(&sh.wake, &sh.mutex, &until);
        }
        int done = sh.exited == n;
        pthread_mutex_unlock(&sh.mutex);
        if (done) break;
        double t = now(), mb = rss_mb();
        if (mb > self->peak_mb) self->peak_mb = mb;
        if (mb > self->limit_mb) set_stop(&sh, MEMORY_BUDGET);
        if (t >= self->deadline) set_stop(&sh, TIME_BUDGET);
        if (t >= next_python) { /* Ctrl-C and progress, with the GIL, a few times a second */
            next_python = t + 0.1;
            u64 nodes = self->nodes + LOAD(sh.granted);
            collect(self);
            Py_BLOCK_THREADS
            Stop why = supervise_python(self, mb, t, nodes);
            Py_UNBLOCK_THREADS
            if (why != RUNNING) set_stop(&sh, why);
        }
        collect(self);
        if (!LOAD(sh.stop) && 4 * (self->used + LOAD(sh.used)) > 3 * self->slots
            && min_u64(self->buckets * 2, self->table_cap / BUCKET_BYTES) > self->buckets)
            grow_parked(self, views, n);
    }
    for (int t = 0; t < started; t++) pthread_join(ids[t], NULL);
    Py_END_ALLOW_THREADS
    collect(self);
    self->shared = NULL;
    for (int t = 0; t < n; t++) self->nodes += views[t]->nodes;
    Stop why = (Stop)sh.stop;
    self->status = why == SETTLED ? RUNNING : why;
    if (why == FAILED && !PyErr_Occurred())
        PyErr_SetString(PyExc_RuntimeError, started < n ? "a search thread could not start" : "a search thread failed (a closure)");
    failed = why == FAILED || (why == INTERRUPTED && PyErr_Occurred());
    goto done;
no_memory:
    PyErr_NoMemory();
fail:
    failed = 1;
    self->shared = NULL;
done:
    if (views) free_views(views, n);
    for (int t = 0; sh.path && t < n; t++) free(sh.path[t]);
    free(sh.path);
    free(sh.cut);
    free(jobs);
    free(ids);
    pthread_mutex_destroy(&sh.mutex);
    pthread_cond_destroy(&sh.wake);
    pthread_cond_destroy(&sh.resume);
    return failed ? -1 : 0;
}

static PyObject *Search_search(Search *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"position", "max_nodes", "max_memory_mb", "max_seconds", "progress", "progress_seconds",
                            "again", "pn_limit", "dn_limit", "threads", "spread", NULL};
    PyObject *position, *progress = Py_None;
    long long max_nodes = -1;
    double max_mb = -1, max_seconds = -1, progress_seconds = 0.5;
    int again = 0;
    unsigned long long pn_limit = INF, dn_limit = INF; /* the root's thresholds (a parallel driver's job) */
    int threads = 1, spread = 4;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|LddOdpKKii", names, &position, &max_nodes, &max_mb, &max_seconds,
                                     &progress, &progress_seconds, &again, &pn_limit, &dn_limit, &threads, &spread))
        return NULL;
    if (!ready(self)) return NULL;
    if (threads < 1 || threads > MAX_THREADS || spread < 0) {
        PyErr_Format(PyExc_ValueError, "threads must be 1..%d and spread at least 0", MAX_THREADS);
        return NULL;
    }
    if (threads > 1 && self->policy) {
        PyErr_SetString(PyExc_ValueError, "a search with a policy calls Python at the prover's positions: it runs on one thread");
        return NULL;
    }
    _Alignas(8) unsigned char state[DFPN_STATE_BYTES];
    if (self->family->parse(self->kernel, position, state) < 0) return NULL;
    self->limit_nodes = max_nodes >= 0 ? self->nodes + (u64)max_nodes : ~0ULL;
    self->limit_mb = max_mb >= 0 ? max_mb : 1e300;
    self->started = now();
    self->deadline = max_seconds >= 0 ? self->started + max_seconds : 1e300;
    self->next_report = self->started;
    self->report_every = progress_seconds;
    self->peak_mb = rss_mb();
    self->progress = progress == Py_None ? NULL : progress;
    self->status = RUNNING;
    u64 pn = 1, dn = 1;
    self->spread = spread;
    if (threads > 1 && !again) {
        numbers(self, state, &pn, &dn);
        if (pn && dn) {
            if (run_threads(self, state, threads, pn_limit < INF ? pn_limit : INF, dn_limit < INF ? dn_limit : INF) < 0)
                return NULL;
            numbers(self, state, &pn, &dn);
        }
    } else if (!setjmp(self->stop)) {
        run(self, state, &pn, &dn, again, pn_limit < INF ? pn_limit : INF, dn_limit < INF ? dn_limit : INF);
    } else {
        if (self->status == FAILED) return NULL;
        numbers(self, state, &pn, &dn);
    }
    self->progress = NULL;
    /* a root settled as a stop came (a thread proved it as the supervisor saw Ctrl-C) is settled */
    const char *status = pn == 0 ? "proved" : dn == 0 ? "disproved" : self->status != RUNNING ? STOP_WORDS[self->status]
                                                                                                 : "threshold";
    return Py_BuildValue("sKKdd", status, (unsigned long long)pn, (unsigned long long)dn, now() - self->started, self->peak_mb);
}

static PyObject *Search_numbers(Search *self, PyObject *position) {
    if (!ready(self)) return NULL;
    _Alignas(8) unsigned char state[DFPN_STATE_BYTES];
    if (self->family->parse(self->kernel, position, state) < 0) return NULL;
    u64 pn, dn;
    numbers(self, state, &pn, &dn);
    return Py_BuildValue("KK", (unsigned long long)pn, (unsigned long long)dn);
}

/* The move code of the first candidate of `state` whose child is proved, or None. */
static PyObject *Search_proved_move(Search *self, PyObject *args) {
    PyObject *position;
    int ply = 0;
    if (!PyArg_ParseTuple(args, "O|i", &position, &ply)) return NULL;
    if (!ready(self)) return NULL;
    _Alignas(8) unsigned char state[DFPN_STATE_BYTES];
    if (self->family->parse(self->kernel, position, state) < 0) return NULL;
    if (self->family->result(self->kernel, state) != DFPN_OPEN) Py_RETURN_NONE;
    DfpnChild *children = malloc((size_t)self->max_moves * sizeof(DfpnChild));
    if (!children) return PyErr_NoMemory();
    self->status = RUNNING;
    volatile int move = -1;
    if (setjmp(self->stop)) { /* the policy raised, or Ctrl-C inside it */
        free(children);
        if (self->status == INTERRUPTED) PyErr_SetNone(PyExc_KeyboardInterrupt);
        return NULL;
    }
    move = proved_code(self, state, ply, children);
    free(children);
    if (move < 0) Py_RETURN_NONE;
    return PyLong_FromLong(move);
}

/* ---------------------------------------------------------------- checkpoints: the table's entries, raw */

static u64 entry_checksum(u64 sum, const Entry *e) { /* in a given order: tables dumped before the buckets */
    return mix(sum ^ key_hash(&e->key) ^ mix(e->pn + 3 * mix(e->dn + 5 * e->work)));
}

static u64 entry_sum(u64 sum, const Entry *e) { /* in any order: the same entries, the same sum */
    return sum + mix(key_hash(&e->key) ^ mix(e->pn + 3 * mix(e->dn + 5 * e->work)));
}

/* The checksum of the used entries, whatever slots they are in: what `dump` writes and `load` must read back. */
static PyObject *Search_checksum(Search *self, PyObject *unused) {
    if (!ready(self)) return NULL;
    u64 sum = 0;
    for (u64 i = 0; i < self->slots; i++)
        if (self->table[i].work) sum = entry_sum(sum, &self->table[i]);
    return PyLong_FromUnsignedLongLong(sum);
}

/* reserve(bytes): size the table for `bytes` now (within its cap) and fault it in; False if it
   could not be mapped (the table then stays, and grows as the search needs). */
static PyObject *Search_reserve(Search *self, PyObject *arg) {
    if (!ready(self)) return NULL;
    unsigned long long bytes = PyLong_AsUnsignedLongLong(arg);
    if (PyErr_Occurred()) return NULL;
    return PyBool_FromLong(reserve(self, bytes));
}

/* dump(fd): write the used entries, raw, to the open file descriptor; how many. */
static PyObject *Search_dump(Search *self, PyObject *arg) {
    if (!ready(self)) return NULL;
    int fd = PyObject_AsFileDescriptor(arg);
    if (fd < 0) return NULL;
    enum { BATCH = 4096 };
    Entry *batch = malloc(BATCH * sizeof(Entry));
    if (!batch) return PyErr_NoMemory();
    u64 count = 0;
    size_t n = 0;
    for (u64 i = 0; i <= self->slots; i++) {
        if (i < self->slots && self->table[i].work) batch[n++] = self->table[i], count++;
        if (n == BATCH || (i == self->slots && n)) {
            const char *at = (const char *)batch;
            size_t left = n * sizeof(Entry);
            while (left) {
                ssize_t done = write(fd, at, left);
                if (done < 0) {
                    free(batch);
                    return PyErr_SetFromErrno(PyExc_OSError);
                }
                at += done, left -= (size_t)done;
            }
            n = 0;
        }
    }
    free(batch);
    return PyLong_FromUnsignedLongLong(count);
}

/* load(path, offset, entries, nodes, checksum): read `entries` raw entries from `path` at `offset`
   into the table (which grows as for new positions), then take `nodes` as the nodes spent; a short
   file, a malformed entry or another checksum is a ValueError (the table is then not to be used). */
static PyObject *Search_load(Search *self, PyObject *args) {
    const char *path;
    long long offset;
    unsigned long long entries, nodes, checksum;
    if (!PyArg_ParseTuple(args, "sLKKK", &path, &offset, &entries, &nodes, &checksum)) return NULL;
    if (!ready(self)) return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
    if (fseeko(f, offset, SEEK_SET)) {
        fclose(f);
        return PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
    }
    /* sized for every entry first: a table doubling as they come would evict some on the way */
    while (4 * entries > 3 * self->slots && grow(self)) continue;
    u64 sum = 0, ordered = 0; /* checkpoints written before the buckets sum in slot order */
    const char *problem = NULL;
    for (u64 i = 0; i < entries && !problem; i++) {
        Entry e;
        if (fread(&e, sizeof e, 1, f) != 1) problem = "the table ends early";
        else if (!e.work || e.pn > INF || e.dn > INF || (!e.pn && !e.dn)) problem = "an entry is malformed";
        else {
            sum = entry_sum(sum, &e), ordered = entry_checksum(ordered, &e);
            store(self, key_hash(&e.key), &e.key, e.pn, e.dn, e.work);
        }
    }
    if (!problem && fgetc(f) != EOF) problem = "the table runs past its stated entries";
    fclose(f);
    if (!problem && sum != checksum && ordered != checksum) problem = "the table's checksum differs";
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    self->nodes = nodes;
    Py_RETURN_NONE;
}

/* adopt(other): take the table of `other`, a search of this claim's exact complement (the other
   player, the other kind, the same bound: player 1 wins within N against player 2 does not lose
   within N) whose keys are this search's (the caller's word: the same game and key function,
   native.py `adopt`), every entry's numbers swapped. A position proved for one claim is disproved
   for its complement and the reverse, and df-pn's numbers are symmetric under the swap (an OR
   node's pn = min, dn = sum is the complement's AND node's dn = min, pn = sum), so the table is a
   table of this search: a disproof's table is the opposite claim's proof, less what it evicted.
   `other` keeps an empty table; this search's own entries are dropped, its cap is the larger. */
static PyObject *Search_adopt(Search *self, PyObject *arg) {
    if (!ready(self)) return NULL;
    if (!PyObject_TypeCheck(arg, Py_TYPE(self)) || !ready((Search *)arg)) {
        PyErr_SetString(PyExc_TypeError, "adopt: another initialised Search");
        return NULL;
    }
    Search *other = (Search *)arg;
    if (other == self || other->family != self->family || other->prover == self->prover ||
        other->no_loss == self->no_loss || other->within != self->within) {
        PyErr_SetString(PyExc_ValueError, "adopt: not a search of this claim's complement over the same family");
        return NULL;
    }
    Tags *tags;
    Entry *table;
    void *mapping;
    size_t mapped;
    if (!map_table(MIN_BUCKETS, &tags, &table, &mapping, &mapped)) return PyErr_NoMemory(); /* other's new, empty table */
    unmap_table(self);
    self->tags = other->tags, self->table = other->table, self->mapping = other->mapping, self->mapped = other->mapped;
    self->buckets = other->buckets, self->slots = other->slots, self->used = other->used, self->evictions = 0;
    self->window = other->window;
    if (other->table_cap > self->table_cap) self->table_cap = other->table_cap;
    other->tags = tags, other->table = table, other->mapping = mapping, other->mapped = mapped;
    other->buckets = MIN_BUCKETS, other->slots = MIN_BUCKETS * WAYS, other->used = 0, other->window = WINDOW;
    for (u64 i = 0; i < self->slots; i++) {
        Entry *e = &self->table[i];
        if (e->work) {
            u64 pn = e->pn;
            e->pn = e->dn, e->dn = pn;
        }
    }
    Py_RETURN_NONE;
}

static PyObject *Search_get_nodes(Search *self, void *closure) { return PyLong_FromUnsignedLongLong(self->nodes); }
static PyObject *Search_get_entries(Search *self, void *closure) { return PyLong_FromUnsignedLongLong(self->used); }
static PyObject *Search_get_evictions(Search *self, void *closure) { return PyLong_FromUnsignedLongLong(self->evictions); }
static PyObject *Search_get_table_bytes(Search *self, void *closure) {
    return PyLong_FromUnsignedLongLong(self->buckets * BUCKET_BYTES);
}
static PyObject *Search_get_table_cap(Search *self, void *closure) { return PyLong_FromUnsignedLongLong(self->table_cap); }

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "Expansions so far, over every search call.", NULL},
    {"entries", (getter)Search_get_entries, NULL, "Positions in the table.", NULL},
    {"evictions", (getter)Search_get_evictions, NULL, "Entries replaced by another position's.", NULL},
    {"table_bytes", (getter)Search_get_table_bytes, NULL, "The table's size now, in bytes.", NULL},
    {"table_cap", (getter)Search_get_table_cap, NULL, "The most bytes the table may take (lowered if an allocation failed).", NULL},
    {NULL},
};

static PyMethodDef Search_methods[] = {
    {"search", (PyCFunction)(void (*)(void))Search_search, METH_VARARGS | METH_KEYWORDS,
     "search(position, max_nodes=-1, max_memory_mb=-1, max_seconds=-1, progress=None, progress_seconds=0.5, again=False,"
     " pn_limit=INF, dn_limit=INF, threads=1, spread=4) -> (status, pn, dn, seconds, peak_rss_mb); a negative budget is none;"
     " the limits are the root's thresholds (status `threshold` when one is reached unsettled); threads: that many threads"
     " search the one table (no policy), a child another thread searches looking (1 + spread/4) times harder."},
    {"numbers", (PyCFunction)Search_numbers, METH_O, "numbers(position) -> (pn, dn) as far as the table knows."},
    {"proved_move", (PyCFunction)Search_proved_move, METH_VARARGS,
     "proved_move(position, ply=0) -> the move code of the first candidate with a proved child (`ply` from the"
     " search's root, for a bounded claim), or None."},
    {"checksum", (PyCFunction)Search_checksum, METH_NOARGS, "checksum() -> the checksum of the used entries `dump` writes."},
    {"reserve", (PyCFunction)Search_reserve, METH_O,
     "reserve(bytes) -> whether the table now holds `bytes` (within its cap), faulted in before the search."},
    {"dump", (PyCFunction)Search_dump, METH_O, "dump(fd) -> the number of used entries written, raw, to the file descriptor."},
    {"load", (PyCFunction)Search_load, METH_VARARGS,
     "load(path, offset, entries, nodes, checksum): read a dumped table back; ValueError if it is damaged."},
    {"adopt", (PyCFunction)Search_adopt, METH_O,
     "adopt(other): take the table of a search of this claim's complement (same family and keys), numbers swapped;"
     " `other` keeps an empty table."},
    {"strategy", (PyCFunction)Search_strategy, METH_VARARGS,
     "strategy(position, ply=0, images=None, blocks=False) -> (moves, positions, terminals, depth, closures, images): the canonical traversal of the proved"
     " strategy from `position` (solver/search/prooftree.py), its prover's moves as bytes (CLOSE where a closure"
     " proves the position, IMAGE where it is named an image), the closures' records, and the images' symmetry indices."},
    {NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solver.search._dfpn.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search(family, config, prover, no_loss, table_bytes, policy=None, within=-1, closures=False): df-pn for"
              " one claim over one family's kernel; policy(position) -> the prover's move codes there, or None for the"
              " kernel's candidates; within: a bounded claim's ply (-1 none); closures: the family's closure may prove"
              " the prover's positions.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* closes(family) -> whether the family's kernel has a closure (dfpn.h `close`). */
static PyObject *module_closes(PyObject *module, PyObject *arg) {
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    for (int i = 0; dfpn_families[i]; i++)
        if (!strcmp(dfpn_families[i]->name, name)) return PyBool_FromLong(dfpn_families[i]->close != NULL);
    return PyErr_Format(PyExc_ValueError, "no compiled kernel for family '%s'", name);
}

static PyMethodDef module_methods[] = {
    {"closes", module_closes, METH_O, "closes(family) -> whether the family's compiled kernel has a closure."},
    {NULL},
};

static struct PyModuleDef dfpn_module = {
    PyModuleDef_HEAD_INIT, "solver.search._dfpn", "Compiled df-pn (solver/search/dfpn.c) and the family kernels it searches.", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__dfpn(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *module = PyModule_Create(&dfpn_module);
    if (!module) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(module, "Search", (PyObject *)&SearchType) < 0
        || PyModule_AddIntConstant(module, "ENTRY_BYTES", sizeof(Entry)) < 0
        || PyModule_AddIntConstant(module, "SLOT_BYTES", (BUCKET_BYTES + WAYS - 1) / WAYS) < 0
        || PyModule_AddObject(module, "GROWTH_HEADROOM", PyFloat_FromDouble((double)GROWTH_HEADROOM_NUM / GROWTH_HEADROOM_DEN)) < 0
        || PyModule_AddIntConstant(module, "CLOSE", DFPN_CLOSE) < 0
        || PyModule_AddObject(module, "INF", PyLong_FromUnsignedLongLong(INF)) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
