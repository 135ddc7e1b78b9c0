/* kernel.c - the positional family (solver/games/positional/engine.py) for the compiled df-pn (solver/search/dfpn.h).

   Boards of up to 64 cells as two bitboards (bit i = cell i, row-major as the engine numbers
   them), every mark rule (own, either, x-only) and goal (first-line-wins, first-line-loses,
   most-lines) of solver/games/positional/rules.py. The configuration comes from the Python wrapper
   (solver/search/native.py) and carries what the family's SearchHooks decide, so the two searches order
   and prune alike:
     (cells, lines, marks, goal, order, symmetries, (threats, threat_budget)[, closure_budget[, potential]])
   lines: one bit mask per line; marks: 0 own, 1 either, 2 x-only; goal: 0 first-line-wins,
   1 first-line-loses, 2 most-lines; order: the cells, best first (solver/games/positional/hooks.py: cells on more
   lines first); symmetries: (fast, group, plies), cell permutations of the line set's automorphism
   group (solver/games/positional/symmetry.py) — the table key is one image of the board under them,
   so symmetric positions share an entry: up to `plies` marks the least image under the whole
   `group` (up to 256: Qubic's 192), each image built from the bitboards, and past it the image of
   least Zobrist hash under the `fast` subgroup (up to 8, the board's geometric ones), whose hashes
   follow each move incrementally; a position's key depends on the position alone, and each is one
   of its true images; threats: 0 none, 1 to search only completions and blocks
   where solver/games/positional/hooks.py does, 2 threat space as well (hooks.py THREAT_SPACE: the
   opponent's forced replies, moves making threats first, victory by continuous threats, each
   attempt up to `threat_budget` steps); closure_budget: the steps of the pairing closure per
   attempt (solver/games/positional/blocking.py's budget; 0 or absent: no closure); potential: 1 to
   let closures leave lines of Erdos-Selfridge potential below 1/2 unpaired (blocking.py, written
   as a potential record, first byte 254). A position is
   (x, o): the bitboards of X and O. */
#include "../../search/dfpn.h"

#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;
#define MAX_CELLS 64
#define MAX_SYMMETRIES 8 /* the fast subgroup, a Zobrist hash each in every position */
#define MAX_GROUP 256     /* the whole group, used near the root */
enum { OWN, EITHER, X_ONLY };
enum { LINE_WINS, LINE_LOSES, MOST_LINES };
enum { NO_THREATS, FORCED, THREAT_SPACE }; /* the `threats` levels */

typedef struct {
    u64 x, o;                /* the marks */
    u64 hash[MAX_SYMMETRIES]; /* Zobrist hash of the board's image under each symmetry */
    int32_t filled;
} Position;

typedef struct {
    int cells, nlines, marks, goal, threats, nsym, ngroup, group_plies, closure_budget, threat_budget, potential;
    u64 *scratch; /* the pairing search's open lines, nlines per level (MAX_CELLS / 2 + 1 levels), and a row for all of them */
    u64 full, *lines;
    int *through, through_start[MAX_CELLS + 1]; /* lines through each cell: through[through_start[c] ...] */
    int order[MAX_CELLS];
    int sym[MAX_SYMMETRIES][MAX_CELLS];
    unsigned char group[MAX_GROUP][MAX_CELLS]; /* [g][cell]: where g sends the cell */
    u64 zobrist[MAX_SYMMETRIES][MAX_CELLS][2]; /* [s][cell][mark - 1]: the key of that mark's image under s */
    u64 (*byte_image)[8][256]; /* [s][j][v]: the image under s of the bits v at cells 8j..8j+7 */
} Kernel;

static u64 splitmix(u64 *seed) {
    u64 z = (*seed += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void destroy(void *kernel) {
    Kernel *k = kernel;
    free(k->lines);
    free(k->through);
    free(k->scratch);
    free(k->byte_image);
    free(k);
}

/* A sequence of ints from Python into `out` (at most `most`); its length, or -1 with an exception. */
static int int_list(PyObject *seq, const char *what, long long *out, int most, long long low, long long high) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > most) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: more than %d items", what, most);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        unsigned long long value = PyLong_AsUnsignedLongLongMask(item);
        if (PyErr_Occurred() || !PyLong_Check(item) || (long long)value < low || (high >= 0 && (long long)value > high)) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: item %zd is out of range", what, i);
            return -1;
        }
        out[i] = (long long)value;
    }
    Py_DECREF(fast);
    return (int)n;
}

static void *create(PyObject *config) {
    PyObject *lines, *order, *symmetries, *group;
    int cells, marks, goal, threats, group_plies, closure_budget = 0, threat_budget = 0, potential = 0;
    if (!PyArg_ParseTuple(config, "iOiiO(OOi)(ii)|ii", &cells, &lines, &marks, &goal, &order, &symmetries, &group, &group_plies,
                          &threats, &threat_budget, &closure_budget, &potential))
        return NULL;
    if (cells < 1 || cells > MAX_CELLS || marks < OWN || marks > X_ONLY || goal < LINE_WINS || goal > MOST_LINES
        || threats < 0 || threats > THREAT_SPACE || threat_budget < 0) {
        PyErr_SetString(PyExc_ValueError, "positional kernel: cells must be 1..64, marks 0..2, goal 0..2, threats 0..2");
        return NULL;
    }
    Kernel *k = calloc(1, sizeof *k);
    if (!k) return PyErr_NoMemory();
    k->cells = cells, k->marks = marks, k->goal = goal, k->threats = threats, k->group_plies = group_plies;
    k->threat_budget = threat_budget;
    k->closure_budget = marks == OWN && goal != LINE_LOSES && closure_budget > 0 ? closure_budget : 0;
    k->potential = potential != 0;
    k->full = cells == 64 ? ~0ULL : (1ULL << cells) - 1;
    Py_ssize_t nlines = PySequence_Size(lines);
    long long buffer[MAX_CELLS];
    if (nlines < 1 || nlines > 1 << 20) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "positional kernel: 1 to 2**20 lines");
        goto fail;
    }
    k->nlines = (int)nlines;
    k->lines = calloc(nlines, sizeof(u64));
    if (!k->lines) goto fail;
    if (k->closure_budget && !(k->scratch = malloc((size_t)(MAX_CELLS / 2 + 2) * nlines * sizeof(u64)))) goto fail;
    for (Py_ssize_t i = 0; i < nlines; i++) {
        PyObject *item = PySequence_GetItem(lines, i);
        if (!item) goto fail;
        k->lines[i] = PyLong_AsUnsignedLongLongMask(item);
        int bad = PyErr_Occurred() || !PyLong_Check(item);
        Py_DECREF(item);
        if (bad || !k->lines[i] || (k->lines[i] & ~k->full)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "positional kernel: a line is not a mask of board cells");
            goto fail;
        }
    }
    int count = 0;
    for (int c = 0; c < cells; c++)
        for (int l = 0; l < k->nlines; l++) count += (int)(k->lines[l] >> c & 1);
    k->through = malloc((count + 1) * sizeof(int));
    if (!k->through) goto fail;
    count = 0;
    for (int c = 0; c < cells; c++) {
        k->through_start[c] = count;
        for (int l = 0; l < k->nlines; l++)
            if (k->lines[l] >> c & 1) k->through[count++] = l;
    }
    k->through_start[cells] = count;
    if (int_list(order, "order", buffer, MAX_CELLS, 0, cells - 1) != cells) goto bad_order;
    u64 seen = 0;
    for (int i = 0; i < cells; i++) k->order[i] = (int)buffer[i], seen |= 1ULL << buffer[i];
    if (seen != k->full) goto bad_order;
    Py_ssize_t nsym = PySequence_Size(symmetries);
    if (nsym < 1 || nsym > MAX_SYMMETRIES) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "positional kernel: 1 to 8 symmetries");
        goto fail;
    }
    k->nsym = (int)nsym;
    u64 seed = 0x5EED;
    u64 base[MAX_CELLS][2];
    for (int c = 0; c < MAX_CELLS; c++) base[c][0] = splitmix(&seed), base[c][1] = splitmix(&seed);
    for (int s = 0; s < k->nsym; s++) {
        PyObject *perm = PySequence_GetItem(symmetries, s);
        if (!perm) goto fail;
        int n = int_list(perm, "symmetry", buffer, MAX_CELLS, 0, cells - 1);
        Py_DECREF(perm);
        if (n != cells) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "positional kernel: a symmetry is not a permutation of the cells");
            goto fail;
        }
        for (int c = 0; c < cells; c++) {
            k->sym[s][c] = (int)buffer[c];
            k->zobrist[s][c][0] = base[buffer[c]][0];
            k->zobrist[s][c][1] = base[buffer[c]][1];
        }
    }
    k->byte_image = calloc((size_t)k->nsym, sizeof *k->byte_image);
    if (!k->byte_image) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int s = 0; s < k->nsym; s++) /* a child's key is an image of its board: 8 lookups, not a loop over its marks */
        for (int j = 0; j < 8; j++)
            for (int v = 1; v < 256; v++)
                for (int b = 0; b < 8; b++)
                    if (v >> b & 1 && 8 * j + b < cells) k->byte_image[s][j][v] |= 1ULL << k->sym[s][8 * j + b];
    Py_ssize_t ngroup = PySequence_Size(group);
    if (ngroup < 1 || ngroup > MAX_GROUP) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "positional kernel: 1 to 256 group elements");
        goto fail;
    }
    k->ngroup = (int)ngroup;
    for (int g = 0; g < k->ngroup; g++) {
        PyObject *perm = PySequence_GetItem(group, g);
        if (!perm) goto fail;
        int n = int_list(perm, "group element", buffer, MAX_CELLS, 0, cells - 1);
        Py_DECREF(perm);
        if (n != cells) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "positional kernel: a group element is not a permutation of the cells");
            goto fail;
        }
        for (int c = 0; c < cells; c++) k->group[g][c] = (unsigned char)buffer[c];
    }
    return k;
bad_order:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "positional kernel: order is not a permutation of the cells");
fail:
    if (!PyErr_Occurred()) PyErr_NoMemory();
    destroy(k);
    return NULL;
}

static int max_plies(const void *kernel) { return ((const Kernel *)kernel)->cells; }

static int max_moves(const void *kernel) {
    const Kernel *k = kernel;
    return k->cells * (k->marks == EITHER ? 2 : 1);
}

static int mover(const void *kernel, const void *state) { return 1 + (((const Position *)state)->filled & 1); }

static int complete(const Kernel *k, u64 marks, int line) { return (marks & k->lines[line]) == k->lines[line]; }

static int result(const void *kernel, const void *state) {
    const Kernel *k = kernel;
    const Position *p = state;
    int x_lines = 0, o_lines = 0;
    for (int l = 0; l < k->nlines; l++) x_lines += complete(k, p->x, l), o_lines += complete(k, p->o, l);
    int full = (p->x | p->o) == k->full, last = 2 - (p->filled & 1); /* the player who moved last */
    if (k->goal == MOST_LINES) return !full ? DFPN_OPEN : x_lines > o_lines ? 1 : o_lines > x_lines ? 2 : 0;
    if (x_lines || o_lines) return k->goal == LINE_WINS ? last : 3 - last;
    return full ? 0 : DFPN_OPEN;
}

static int parse(const void *kernel, PyObject *position, void *state) {
    const Kernel *k = kernel;
    Position *p = state;
    unsigned long long x, o;
    if (!PyArg_ParseTuple(position, "KK", &x, &o)) return -1;
    if ((x & o) || ((x | o) & ~k->full) || (k->marks == X_ONLY && o)) {
        PyErr_SetString(PyExc_ValueError, "positional kernel: not a board of these rules");
        return -1;
    }
    memset(p, 0, sizeof *p);
    p->x = x, p->o = o;
    p->filled = __builtin_popcountll(x | o);
    for (int s = 0; s < k->nsym; s++)
        for (int c = 0; c < k->cells; c++) {
            if (x >> c & 1) p->hash[s] ^= k->zobrist[s][c][0];
            if (o >> c & 1) p->hash[s] ^= k->zobrist[s][c][1];
        }
    return 0;
}

static u64 image(const Kernel *k, int s, u64 bits) {
    const u64(*table)[256] = k->byte_image[s];
    return table[0][bits & 255] | table[1][bits >> 8 & 255] | table[2][bits >> 16 & 255] | table[3][bits >> 24 & 255]
         | table[4][bits >> 32 & 255] | table[5][bits >> 40 & 255] | table[6][bits >> 48 & 255] | table[7][bits >> 56];
}

static u64 group_image(const Kernel *k, int g, u64 bits) {
    u64 out = 0;
    for (; bits; bits &= bits - 1) out |= 1ULL << k->group[g][__builtin_ctzll(bits)];
    return out;
}

static void key(const void *kernel, const void *state, DfpnKey *key) {
    const Kernel *k = kernel;
    const Position *p = state;
    /* near the root, the least image under the group -- unless the group is the fast subgroup
       (7x7's 8 symmetries): its least-hash image is as canonical and costs no images */
    if (p->filled <= k->group_plies && k->ngroup > k->nsym) {
        u64 best_x = p->x, best_o = p->o;
        for (int g = 0; g < k->ngroup; g++) {
            u64 x = group_image(k, g, p->x);
            if (x > best_x) continue;
            u64 o = group_image(k, g, p->o);
            if (x < best_x || o < best_o) best_x = x, best_o = o;
        }
        key->w[0] = best_x, key->w[1] = best_o, key->w[2] = 0;
        return;
    }
    int best = 0; /* past it: the fast subgroup's image with the least hash */
    u64 least = p->hash[0]; /* the least so far kept by value: no load waits on the index */
    for (int s = 1; s < k->nsym; s++)
        if (p->hash[s] < least) least = p->hash[s], best = s;
    key->w[0] = image(k, best, p->x);
    key->w[1] = image(k, best, p->o);
    key->w[2] = 0;
}

/* The identity of the board with the mark on cell c moved to permutation[c] (the walk's images). */
static void image_identity(const void *kernel, const void *state, const unsigned char *permutation, DfpnKey *key) {
    const Position *p = state;
    u64 x = 0, o = 0;
    for (u64 bits = p->x; bits; bits &= bits - 1) x |= 1ULL << permutation[__builtin_ctzll(bits)];
    for (u64 bits = p->o; bits; bits &= bits - 1) o |= 1ULL << permutation[__builtin_ctzll(bits)];
    key->w[0] = x, key->w[1] = o, key->w[2] = 0;
}

/* The cells where the holder of `mine` completes a line now (no mark of `theirs` on it, one empty cell).
   Not `completions`: that one needs a mark of `mine` on the line, and checker/proof.py's rule for
   --blocks counts a lone empty cell as a line either player completes. */
static u64 completing(const Kernel *k, u64 mine, u64 theirs) {
    u64 empty = k->full & ~(mine | theirs), cells = 0;
    for (int l = 0; l < k->nlines; l++) {
        u64 line = k->lines[l], free = line & empty;
        if (free && !(free & (free - 1)) && !(line & theirs)) cells |= free;
    }
    return cells;
}

/* prooftree.py `replies` under --blocks (single.py blocking_replies): the moves on the cells where
   the prover completes a line, when the opponent completes none; else every move. */
static int listed(const void *kernel, const void *state, int prover, DfpnChild *legal, int count) {
    const Kernel *k = kernel;
    const Position *p = state;
    if (k->marks != OWN || k->goal != LINE_WINS) return count;
    u64 mine = prover == 1 ? p->x : p->o, theirs = prover == 1 ? p->o : p->x;
    u64 threats = completing(k, mine, theirs);
    if (!threats || completing(k, theirs, mine)) return count;
    int kept = 0;
    for (int i = 0; i < count; i++)
        if (threats >> (legal[i].move >> 2) & 1) legal[kept++] = legal[i];
    return kept;
}

/* The marks (X bitboard, O bitboard), for a policy (kernel.py `state` reads them back). */
static PyObject *export(const void *kernel, const void *state) {
    const Position *p = state;
    return Py_BuildValue("KK", (unsigned long long)p->x, (unsigned long long)p->o);
}

/* The winner once `mark` is placed on `cell` by `player` in `after` (DFPN_OPEN if play goes on). */
static int result_after(const Kernel *k, const Position *after, int cell, int mark, int player) {
    if (k->goal == MOST_LINES) return (after->x | after->o) == k->full ? result(k, after) : DFPN_OPEN;
    u64 marks = mark == 1 ? after->x : after->o;
    for (int i = k->through_start[cell]; i < k->through_start[cell + 1]; i++)
        if (complete(k, marks, k->through[i])) return k->goal == LINE_WINS ? player : 3 - player;
    return (after->x | after->o) == k->full ? 0 : DFPN_OPEN;
}

/* The cells where `me` completes a line now: lines with one empty cell and the rest `me`'s. */
static u64 completions(const Kernel *k, u64 me, u64 them, u64 empty) {
    u64 cells = 0;
    for (int l = 0; l < k->nlines; l++) {
        u64 line = k->lines[l], e = line & empty;
        if (e && !(e & (e - 1)) && !(line & them) && (line & me)) cells |= e;
    }
    return cells;
}

/* hooks.py _threat_moves: for each empty cell, the cells where its player would complete a line
   once it is marked (the lines through it with no mark of `them` and one other empty cell). */
static void threat_moves(const Kernel *k, u64 them, u64 empty, u64 *made) {
    memset(made, 0, sizeof(u64) * MAX_CELLS);
    for (int l = 0; l < k->nlines; l++) {
        u64 line = k->lines[l], e = line & empty, a = e & -e, b = e & (e - 1);
        if ((line & them) || !b || (b & (b - 1))) continue; /* two empty cells, a and b: no popcount (a call without -mpopcnt) */
        made[__builtin_ctzll(a)] |= b;
        made[__builtin_ctzll(b)] |= a;
    }
}

/* hooks.py _vcf: victory by continuous threats. `me` to move, with no line to complete now:
   whether a sequence of moves, each making a threat (the opponent's reply forced: the one block),
   the last two at once, wins, where the opponent never has a line to complete. Its first move goes
   to *first. At most k->threat_budget steps in all (*steps counts them); past them, no. */
static int vcf(const Kernel *k, u64 me, u64 them, u64 empty, int *steps, int *first) {
    u64 forced = completions(k, them, me, empty), made[MAX_CELLS];
    if (forced & (forced - 1)) return 0; /* two threats of the opponent: one block leaves the other */
    threat_moves(k, them, empty, made);
    for (int i = 0; i < k->cells; i++) {
        int cell = k->order[i];
        u64 bit = 1ULL << cell;
        if (!(empty & bit) || !made[cell] || (forced && !(forced & bit))) continue;
        if (++*steps > k->threat_budget) return 0;
        u64 mine = me | bit, left = empty & ~bit, wins = completions(k, mine, them, left);
        if (completions(k, them, mine, left)) continue; /* the opponent completes a line instead */
        if (wins & (wins - 1)) return *first = cell, 1;
        int next;
        if ((left & ~wins) && vcf(k, mine, them | wins, left & ~wins, steps, &next)) return *first = cell, 1;
    }
    return 0;
}

/* solver/games/positional/hooks.py PositionalHooks.candidates: the cells to search (`only`) and
   their order, tier by tier (tiers[0] first, each in the kernel's order); how many tiers. */
static int threat_cells(const Kernel *k, const Position *p, int player, int prover_moves, u64 empty, u64 *only, u64 *tiers) {
    u64 me = player == 1 ? p->x : p->o, them = player == 1 ? p->o : p->x;
    u64 wins = completions(k, me, them, empty), blocks = completions(k, them, me, empty);
    *only = k->full;
    tiers[0] = blocks;
    if (wins) {
        if (prover_moves) *only = tiers[0] = wins;
        else tiers[0] = wins | blocks;
        return 1;
    }
    if (k->threats < THREAT_SPACE) {
        if (blocks && prover_moves) *only = blocks;
        return 1;
    }
    if (blocks) { /* either side: a block, or nothing if one block leaves another completion */
        *only = blocks & (blocks - 1) ? 0 : blocks;
        return 1;
    }
    int steps = 0, first;
    if (vcf(k, me, them, empty, &steps, &first)) { /* first, not alone: a symmetric image may take another */
        tiers[0] = 1ULL << first;
        return 1;
    }
    u64 made[MAX_CELLS];
    threat_moves(k, them, empty, made);
    tiers[0] = tiers[1] = 0; /* double threats, then single ones */
    for (u64 rest = empty; rest; rest &= rest - 1) {
        int cell = __builtin_ctzll(rest);
        if (made[cell] & (made[cell] - 1)) tiers[0] |= 1ULL << cell;
        else if (made[cell]) tiers[1] |= 1ULL << cell;
    }
    return 2;
}

/* The child of `p` where the player to move puts `mark` on `cell`, its key left for the caller. */
static void child(const Kernel *k, const Position *p, int cell, int mark, DfpnChild *c) {
    Position *after = (Position *)c->state;
    *after = *p;
    after->filled++;
    if (mark == 1) after->x |= 1ULL << cell;
    else after->o |= 1ULL << cell;
    for (int s = 0; s < k->nsym; s++) after->hash[s] ^= k->zobrist[s][cell][mark - 1];
    c->result = result_after(k, after, cell, mark, mover(k, p));
    c->move = cell * 4 + mark;
}

/* The marks the player to move may place: the first and the last of a range. */
static void mark_range(const Kernel *k, int player, int *first, int *last) {
    *first = k->marks == OWN ? player : 1;
    *last = k->marks == EITHER ? 2 : *first;
}

static int expand(const void *kernel, const void *state, int prover, DfpnChild *out) {
    const Kernel *k = kernel;
    const Position *p = state;
    int player = mover(k, p), n = 0, first_mark, last_mark, ntiers = 0;
    u64 empty = k->full & ~(p->x | p->o), only = k->full, tiers[3], taken = 0;
    if (k->threats) ntiers = threat_cells(k, p, player, player == prover, empty, &only, tiers);
    tiers[ntiers++] = k->full; /* the rest */
    mark_range(k, player, &first_mark, &last_mark);
    for (int t = 0; t < ntiers; t++)
        for (int i = 0; i < k->cells; i++) {
            int cell = k->order[i];
            u64 bit = 1ULL << cell;
            if (!(empty & only & bit & tiers[t]) || (taken & bit)) continue;
            taken |= bit;
            for (int mark = first_mark; mark <= last_mark; mark++) {
                DfpnChild *c = &out[n++];
                child(k, p, cell, mark, c);
                key(k, c->state, &c->key);
            }
        }
    return n;
}

/* engine.py legal_moves: by cell, then mark. */
static int legal(const void *kernel, const void *state, DfpnChild *out) {
    const Kernel *k = kernel;
    const Position *p = state;
    int n = 0, first_mark, last_mark;
    u64 empty = k->full & ~(p->x | p->o);
    mark_range(k, mover(k, p), &first_mark, &last_mark);
    for (int cell = 0; cell < k->cells; cell++)
        if (empty >> cell & 1)
            for (int mark = first_mark; mark <= last_mark; mark++) child(k, p, cell, mark, &out[n++]);
    return n;
}

/* engine.py key: the board itself. */
static void identity(const void *kernel, const void *state, DfpnKey *key) {
    const Position *p = state;
    key->w[0] = p->x;
    key->w[1] = p->o;
    key->w[2] = 0;
}

/* ---------------------------------------------------------------- closures: pairings

   solver/games/positional/blocking.py in C, step for step (the same lines, the same reduction, the
   same test before each branch, the same pairs tried in the same order, the same budget), so the
   two searches close the same positions with the same pairs. */

/* A cell's augmenting path in `feasible`'s matching: kept[index] takes one more usable cell, moving
   the owners of cells already taken along the way (owner[cell]: a kept index, or -1). */
static int augment(const u64 *kept, int index, u64 *seen, signed char *owner) {
    for (u64 free = kept[index]; free; free &= free - 1) {
        u64 bit = free & -free;
        if (*seen & bit) continue;
        *seen |= bit;
        int cell = __builtin_ctzll(bit);
        if (owner[cell] < 0 || augment(kept, owner[cell], seen, owner)) {
            owner[cell] = (signed char)index;
            return 1;
        }
    }
    return 0;
}

/* blocking.py feasible: a necessary condition for disjoint pairs outside `used` blocking each of the
   `n` masks -- every one has two usable cells, and the masks that pairwise share fewer than two usable
   cells (chosen greedily: fewest usable cells first, then in order) get two distinct usable cells each. */
static int feasible(const u64 *remaining, int n, u64 used) {
    u64 kept[MAX_CELLS / 2 + 1];
    int most = 0, nkept = 0;
    for (int i = 0; i < n; i++) {
        int count = __builtin_popcountll(remaining[i] & ~used);
        if (count < 2) return 0;
        if (count > most) most = count;
    }
    for (int size = 2; size <= most; size++)
        for (int i = 0; i < n; i++) {
            u64 free = remaining[i] & ~used;
            if (__builtin_popcountll(free) != size) continue;
            int alone = 1;
            for (int j = 0; j < nkept && alone; j++) alone = __builtin_popcountll(free & kept[j]) < 2;
            if (!alone) continue;
            if (nkept == MAX_CELLS / 2) return 0; /* two cells each: more than the board holds */
            kept[nkept++] = free;
        }
    signed char owner[MAX_CELLS];
    memset(owner, -1, sizeof owner);
    for (int i = 0; i < nkept; i++)
        for (int slot = 0; slot < 2; slot++) {
            u64 seen = 0;
            if (!augment(kept, i, &seen, owner)) return 0;
        }
    return 1;
}

/* blocking.py weight: a line's potential with the cells `free` left to it, in units of 2^-62 (rounded up). */
static u64 weight(u64 free) {
    int count = __builtin_popcountll(free);
    return count >= 62 ? 1 : 1ULL << (62 - count);
}

#define HALF (1ULL << 61) /* 1/2 in those units; a sum stops growing once it reaches HALF, so it never overflows */

/* blocking.py below_half: whether the open lines no pair of pairs[0..level) blocks weigh less than
   1/2 with the pairs' cells `used` taken away; the `n` remaining ones (all unblocked) first. */
static int below_half(const Kernel *k, const u64 *remaining, int n, int nopen, u64 used, const u64 *pairs, int level) {
    const u64 *open = k->scratch + (size_t)(MAX_CELLS / 2 + 1) * k->nlines;
    u64 sum = 0;
    for (int i = 0; i < n && sum < HALF; i++) sum += weight(remaining[i] & ~used);
    if (sum >= HALF) return 0;
    sum = 0;
    for (int i = 0; i < nopen && sum < HALF; i++) {
        int blocked = 0;
        for (int j = 0; j < level && !blocked; j++) blocked = (open[i] & pairs[j]) == pairs[j];
        if (!blocked) sum += weight(open[i] & ~used);
    }
    return sum < HALF;
}

/* Disjoint pairs of empty cells such that every open line (one without a mark in `mine`) holds
   one (with k->potential: or leaving the rest a potential below 1/2, *loose then set): the open
   lines at `level` of the scratch, `n` of them, none of whose pairs may use `used`; `nopen`: all
   open lines, in the scratch's last row. The pairs go to pairs[level...]; returns how many pairs
   in all, -1, or -2 with a Python exception set (Ctrl-C, seen every 64 steps: a closure may take
   seconds). */
static int solve(const Kernel *k, int level, int n, int nopen, u64 used, int limit, int *steps, u64 *pairs, int *loose) {
    if (!n) return level;
    const u64 *remaining = k->scratch + (size_t)level * k->nlines;
    if (k->potential && below_half(k, remaining, n, nopen, used, pairs, level)) {
        *loose = 1;
        return level;
    }
    if (++*steps > limit) return -1;
    if (!(*steps & 63) && PyGILState_Check() && PyErr_CheckSignals() < 0) return -2;
    if (!feasible(remaining, n, used)) return -1;
    u64 *rest = k->scratch + (size_t)(level + 1) * k->nlines;
    int fewest = 0, least = 1 << 30;
    for (int i = 0; i < n; i++) { /* the line with the fewest usable cells, the first of them */
        int free_cells = __builtin_popcountll(remaining[i] & ~used);
        if (free_cells < least) least = free_cells, fewest = i;
    }
    u64 cells = remaining[fewest] & ~used, options[MAX_CELLS * (MAX_CELLS - 1) / 2];
    int blocked[MAX_CELLS * (MAX_CELLS - 1) / 2], count = 0;
    for (u64 a = cells; a; a &= a - 1)
        for (u64 b = a & (a - 1); b; b &= b - 1) {
            u64 pair = (a & -a) | (b & -b);
            int lines = 0;
            for (int i = 0; i < n; i++) lines += (remaining[i] & pair) == pair;
            int j = count++; /* insertion by most lines blocked, ties in the order generated */
            for (; j > 0 && blocked[j - 1] < lines; j--) options[j] = options[j - 1], blocked[j] = blocked[j - 1];
            options[j] = pair, blocked[j] = lines;
        }
    for (int o = 0; o < count; o++) {
        u64 pair = options[o];
        int m = 0;
        for (int i = 0; i < n; i++)
            if ((remaining[i] & pair) != pair) rest[m++] = remaining[i];
        pairs[level] = pair; /* below_half reads the pairs chosen so far */
        int found = solve(k, level + 1, m, nopen, used | pair, limit, steps, pairs, loose);
        if (found >= 0 || found == -2) return found;
    }
    return -1;
}

/* blocking_pairs: how many pairs block every line without a mark in `mine` (or leave the rest a
   potential below 1/2: *loose set), -1, or -2 (Ctrl-C), within `limit` steps (counted in `steps`).
   The open lines are reduced as blocking.py reduced does: one containing another open line (or
   equal to an earlier one) is dropped. */
static int blocking_pairs(const Kernel *k, u64 mine, u64 empty, int limit, int *steps, u64 *pairs, int *loose) {
    int n = 0, kept = 0;
    u64 *open = k->scratch + (size_t)(MAX_CELLS / 2 + 1) * k->nlines; /* the scratch's last row */
    for (int l = 0; l < k->nlines; l++) {
        u64 line = k->lines[l], mask = line & empty;
        if (line & mine) continue;
        if (!(mask & (mask - 1))) return -1; /* fewer than two empty cells: no pair fits */
        open[n++] = mask;
    }
    for (int i = 0; i < n; i++) {
        int covered = 0;
        for (int j = 0; j < n && !covered; j++)
            covered = j != i && (open[j] & open[i]) == open[j] && (open[j] != open[i] || j < i);
        if (!covered) k->scratch[kept++] = open[i];
    }
    return solve(k, 0, kept, n, 0, limit, steps, pairs, loose);
}

/* dfpn.h close: closing_pairing -- the first empty cell (by most open lines through it, then in
   order) where a move of the prover leaves pairs blocking every line open to the opponent, each
   move's search within a tenth of the budget, all of them within it; written as checker/proof.py
   reads a closure: the first move, the number of pairs, their cells (pairs in order), after a byte
   254 where the pairs leave lines unblocked (a potential record). -1 with KeyboardInterrupt set
   on Ctrl-C inside the search (dfpn.c then stops as interrupted). */
static int closure(const void *kernel, const void *state, int prover, int no_loss, int plies_left, int written,
                   unsigned char *out) {
    (void)written; /* the search and the walk find the same pairing: one record either way */
    const Kernel *k = kernel;
    const Position *p = state;
    if (!no_loss || !k->closure_budget) return 0;
    u64 mine = prover == 1 ? p->x : p->o, empty = k->full & ~(p->x | p->o), pairs[MAX_CELLS / 2];
    int through[MAX_CELLS] = {0}, order[MAX_CELLS], cells = 0;
    for (int l = 0; l < k->nlines; l++)
        if (!(k->lines[l] & mine))
            for (u64 rest = k->lines[l] & empty; rest; rest &= rest - 1) through[__builtin_ctzll(rest)]++;
    for (u64 rest = empty; rest; rest &= rest - 1) { /* insertion by most lines, ties in order */
        int cell = __builtin_ctzll(rest), j = cells++;
        for (; j > 0 && through[order[j - 1]] < through[cell]; j--) order[j] = order[j - 1];
        order[j] = cell;
    }
    int first = 255, count = -1, spent = 0, loose = 0, attempt = k->closure_budget / 10 > 1 ? k->closure_budget / 10 : 1;
    for (int i = 0; i < cells && count < 0 && spent < k->closure_budget; i++) {
        int steps = 0, limit = k->closure_budget - spent < attempt ? k->closure_budget - spent : attempt;
        u64 cell = 1ULL << order[i];
        first = order[i];
        count = blocking_pairs(k, mine | cell, empty & ~cell, limit, &steps, pairs, &loose);
        if (count == -2) return -1;
        spent += steps;
    }
    if (count < 0) return 0;
    for (int i = 1; i < count; i++) /* sorted by their first cell, as the Python closure sorts them */
        for (int j = i; j > 0 && __builtin_ctzll(pairs[j]) < __builtin_ctzll(pairs[j - 1]); j--) {
            u64 t = pairs[j];
            pairs[j] = pairs[j - 1], pairs[j - 1] = t;
        }
    if (loose) *out++ = 254; /* blocking.py POTENTIAL */
    out[0] = (unsigned char)first;
    out[1] = (unsigned char)count;
    for (int i = 0; i < count; i++) {
        out[2 + 2 * i] = (unsigned char)__builtin_ctzll(pairs[i]);
        out[3 + 2 * i] = (unsigned char)(63 - __builtin_clzll(pairs[i]));
    }
    return loose + 2 + 2 * count;
}

const DfpnFamily dfpn_positional = {
    .name = "positional",
    .state_bytes = sizeof(Position),
    .create = create,
    .destroy = destroy,
    .max_plies = max_plies,
    .max_moves = max_moves,
    .parse = parse,
    .mover = mover,
    .result = result,
    .key = key,
    .expand = expand,
    .legal = legal,
    .identity = identity,
    .export = export,
    .image = image_identity,
    .listed = listed,
    .close = closure,
};

_Static_assert(sizeof(Position) <= DFPN_STATE_BYTES, "a position fits a child's state");
