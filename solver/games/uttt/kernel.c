/* kernel.c - Ultimate tic-tac-toe (solver/games/uttt/engine.py) for the compiled df-pn (solver/search/dfpn.h).

   A position is nine local boards of 9-bit chunks per player (bit c = cell c of that board, as
   the engine's 81-bit marks hold them), the won and closed boards as 9-bit masks, the board sent
   to (-1: any open board) and the marks placed. Every rule question is a lookup on a chunk, as
   in the engine. The table key is the exact position (the marks, who won each board and the
   board sent to; under the rules `uttt` the winners follow from the marks, under the open rules
   they are history: the first line in a board wins it), or, given grid symmetries besides the
   identity, the least of the position's images under them, packed another way (`key`): every
   image then shares one entry. The certificate's traversal always tells positions apart exactly
   (`identity`).

   The configuration comes from the Python wrapper (solver/games/uttt/kernel.py):
     (critical, open, win_by, symmetries)
   critical: 1 to order and prune as the family's SearchHooks, CriticalSquares (seed 003's
   critical squares), 0 for plain search (every legal move, ascending). open: 1 for the open
   rules (`uttt:open`: a won board stays playable, only a full board is closed), 0 for `uttt`.
   win_by: CriticalSquares.win_by. symmetries: the grid symmetries the key is canonical under,
   each a permutation p of 0..8 moving board b to p[b] and cell c of every board to p[c]
   (engine.py grid_image), the identity first; one, the identity: the exact key.
   A position from Python is (x low, x high, o low, o high, sent, x won, o won): the engine's
   81-bit marks split at bit 64, the board sent to, and the boards each player won (checked
   against the marks); a move code is the global cell 9 * board + cell. */
#include "../../search/dfpn.h"

#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;
#define FULL9 0x1FF
#define X 1
#define O 2

typedef struct {
    uint16_t mark[2][9]; /* [player - 1][board]: the 9-bit chunk of that player's marks */
    uint16_t won[2];     /* [player - 1]: boards won */
    uint16_t closed;     /* boards won or full */
    int8_t sent;         /* the board the player to move must play in, or -1 */
    uint8_t filled;      /* marks placed */
    u64 packed[3];       /* the key's marks, kept move by move: X's cells 0-63, O's, then both past 63 */
} Position;

#define SYMMETRIES 8 /* the grid's: rotations and reflections */

typedef struct {
    int critical;
    int open; /* the open rules: won boards stay playable, only full boards close */
    int win_by; /* CriticalSquares.win_by: a win claim's bound as marks on the grid (-1: none) */
    int estimating; /* CriticalSquares.estimating: first numbers from the count (`estimate`) */
    int symmetries; /* how many the key is canonical under (1: the exact key) */
    uint8_t board_to[SYMMETRIES][9];     /* [symmetry][board]: the board it goes to */
    uint16_t chunk_to[SYMMETRIES][512]; /* [symmetry][9-bit set]: its image (cells or boards alike) */
} Kernel;

/* WON[m]: the 9-bit set m holds a line. COMPLETERS[m]: cells that would complete a line of m. */
static uint8_t WON[512];
static uint16_t COMPLETERS[512];

static void init_tables(void) {
    static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    for (int m = 0; m < 512; m++)
        for (int l = 0; l < 8; l++) {
            int line = 1 << lines[l][0] | 1 << lines[l][1] | 1 << lines[l][2];
            if ((m & line) == line) WON[m] = 1;
        }
    for (int m = 0; m < 512; m++) {
        COMPLETERS[m] = 0;
        for (int c = 0; c < 9; c++)
            if (!(m >> c & 1) && WON[m | 1 << c]) COMPLETERS[m] |= (uint16_t)(1 << c);
    }
}

static void init_costs(void); /* the meta-line count's table of board costs */

/* The symmetries of the configuration into k (board_to, chunk_to); 0, or -1 with a Python exception set. */
static int read_symmetries(Kernel *k, PyObject *symmetries) {
    PyObject *seq = PySequence_Fast(symmetries, "uttt kernel: the symmetries are not a sequence");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int bad = n < 1 || n > SYMMETRIES;
    for (Py_ssize_t s = 0; s < n && !bad; s++) {
        PyObject *perm = PySequence_Fast_GET_ITEM(seq, s);
        int seen = 0;
        bad = !PyTuple_Check(perm) || PyTuple_GET_SIZE(perm) != 9;
        for (int c = 0; c < 9 && !bad; c++) {
            long to = PyLong_AsLong(PyTuple_GET_ITEM(perm, c));
            bad = to < 0 || to > 8 || seen >> to & 1 || (s == 0 && to != c); /* a permutation; the identity first */
            seen |= 1 << (to & 15);
            k->board_to[s][c] = (uint8_t)to;
        }
        for (int m = 0; m < 512 && !bad; m++) {
            k->chunk_to[s][m] = 0;
            for (int c = 0; c < 9; c++)
                if (m >> c & 1) k->chunk_to[s][m] |= (uint16_t)(1 << k->board_to[s][c]);
        }
    }
    Py_DECREF(seq);
    if (PyErr_Occurred()) return -1;
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "uttt kernel: the symmetries are not 1 to 8 permutations of 0..8, the identity first");
        return -1;
    }
    k->symmetries = (int)n;
    return 0;
}

static void *create(PyObject *config) {
    int critical, open, win_by, estimating;
    PyObject *symmetries;
    if (!PyArg_ParseTuple(config, "ppiOp", &critical, &open, &win_by, &symmetries, &estimating)) return NULL;
    Kernel *k = calloc(1, sizeof *k);
    if (!k) return PyErr_NoMemory();
    k->critical = critical;
    k->open = open;
    k->win_by = win_by;
    k->estimating = estimating;
    if (read_symmetries(k, symmetries) < 0) {
        free(k);
        return NULL;
    }
    if (!WON[7]) init_tables(), init_costs(); /* cells 0, 1, 2 are a line: the tables are built once */
    return k;
}

static void destroy(void *kernel) { free(kernel); }

static int max_plies(const void *kernel) { return 81; }

static int max_moves(const void *kernel) { return 81; }

static int mover(const void *kernel, const void *state) { return 1 + (((const Position *)state)->filled & 1); }

static int result(const void *kernel, const void *state) {
    const Position *p = state;
    if (WON[p->won[0]]) return X;
    if (WON[p->won[1]]) return O;
    return p->closed == FULL9 ? 0 : DFPN_OPEN;
}

static int empty(const Position *p, int board) { return FULL9 & ~(p->mark[0][board] | p->mark[1][board]); }

/* The position after `move` by the player to move, unchecked (engine.py `play`): the first line
   in a board wins it; under the open rules the board stays playable until it is full. */
static void play(const Kernel *k, const Position *p, int move, Position *after) {
    int board = move / 9, cell = move % 9, me = p->filled & 1, bit = 1 << board;
    *after = *p;
    after->mark[me][board] |= (uint16_t)(1 << cell);
    if (move < 64) after->packed[me] |= 1ULL << move;
    else after->packed[2] |= 1ULL << (move - 64 + 17 * me);
    if (!((p->won[0] | p->won[1]) & bit) && WON[after->mark[me][board]]) {
        after->won[me] |= (uint16_t)bit;
        if (!k->open) after->closed |= (uint16_t)bit;
    }
    if (!empty(after, board)) after->closed |= (uint16_t)bit;
    after->filled++;
    after->sent = (int8_t)(after->closed >> cell & 1 ? -1 : cell);
}

/* The nine chunks of 81-bit marks given as their low 64 bits and the rest. */
static int chunks_of(u64 lo, u64 hi, uint16_t chunks[9]) {
    if (hi >> 17) {
        PyErr_SetString(PyExc_ValueError, "uttt kernel: marks are not an 81-bit mask");
        return -1;
    }
    for (int b = 0; b < 9; b++) {
        int at = 9 * b;
        u64 bits = at < 64 ? lo >> at | (at > 55 ? hi << (64 - at) : 0) : hi >> (at - 64);
        chunks[b] = (uint16_t)(bits & FULL9);
    }
    return 0;
}

/* The boards won by X and by O do not fit the marks: a board is won by one player at most, by
   a player with a line in it, and a board with a line is won; only the open rules let a board
   hold lines of both marks (then either may have come first). */
static int winners_problem(const Kernel *k, const Position *p, int x_won, int o_won) {
    if ((x_won | o_won) & ~FULL9 || x_won & o_won) return 1;
    for (int b = 0; b < 9; b++) {
        int x_line = WON[p->mark[0][b]], o_line = WON[p->mark[1][b]], xw = x_won >> b & 1, ow = o_won >> b & 1;
        if ((xw && !x_line) || (ow && !o_line) || ((x_line || o_line) && !xw && !ow) || (x_line && o_line && !k->open)) return 1;
    }
    return 0;
}

static void marks_of(const Position *p, u64 words[2][2]);

static int parse(const void *kernel, PyObject *position, void *state) {
    const Kernel *k = kernel;
    Position *p = state;
    unsigned long long x_low, x_high, o_low, o_high;
    int sent, x_won, o_won;
    if (!PyArg_ParseTuple(position, "KKKKiii", &x_low, &x_high, &o_low, &o_high, &sent, &x_won, &o_won)) return -1;
    memset(p, 0, sizeof *p);
    if (chunks_of(x_low, x_high, p->mark[0]) < 0 || chunks_of(o_low, o_high, p->mark[1]) < 0) return -1;
    int nx = 0, no = 0;
    for (int b = 0; b < 9; b++) {
        if (p->mark[0][b] & p->mark[1][b]) {
            PyErr_SetString(PyExc_ValueError, "uttt kernel: a cell holds both marks");
            return -1;
        }
        nx += __builtin_popcount(p->mark[0][b]), no += __builtin_popcount(p->mark[1][b]);
        if (!empty(p, b)) p->closed |= (uint16_t)(1 << b);
    }
    if (winners_problem(k, p, x_won, o_won)) {
        PyErr_SetString(PyExc_ValueError, "uttt kernel: the boards won do not fit the marks");
        return -1;
    }
    p->won[0] = (uint16_t)x_won, p->won[1] = (uint16_t)o_won;
    if (!k->open) p->closed |= p->won[0] | p->won[1];
    if ((nx != no && nx != no + 1) || sent < -1 || sent > 8) {
        PyErr_SetString(PyExc_ValueError, "uttt kernel: not a position of the rules");
        return -1;
    }
    p->filled = (uint8_t)(nx + no);
    p->sent = (int8_t)(sent >= 0 && !(p->closed >> sent & 1) ? sent : -1);
    u64 w[2][2];
    marks_of(p, w);
    p->packed[0] = w[0][0], p->packed[1] = w[1][0], p->packed[2] = w[0][1] | w[1][1] << 17;
    return 0;
}

/* Each player's 81-bit marks as their low 64 bits and the rest: words[player - 1][0 or 1]. */
static void marks_of(const Position *p, u64 words[2][2]) {
    words[0][0] = words[0][1] = words[1][0] = words[1][1] = 0;
    for (int who = 0; who < 2; who++)
        for (int b = 0; b < 9; b++) {
            u64 bits = p->mark[who][b];
            int at = 9 * b;
            if (at < 64) words[who][0] |= bits << at;
            if (at + 9 > 64) words[who][1] |= at < 64 ? bits >> (64 - at) : bits << (at - 64);
        }
}

/* 81-bit marks as a Python int, from their low 64 bits and the rest. */
static PyObject *marks_int(u64 low, u64 high) {
    unsigned char bytes[16];
    for (int i = 0; i < 8; i++) bytes[i] = (unsigned char)(low >> 8 * i), bytes[8 + i] = (unsigned char)(high >> 8 * i);
    return _PyLong_FromByteArray(bytes, sizeof bytes, 1, 0);
}

/* The engine's Position fields (x, o, xw, ow, closed, sent), for a policy. */
static PyObject *export(const void *kernel, const void *state) {
    const Position *p = state;
    u64 words[2][2];
    marks_of(p, words);
    PyObject *x = marks_int(words[0][0], words[0][1]), *o = x ? marks_int(words[1][0], words[1][1]) : NULL;
    PyObject *out = o ? Py_BuildValue("OOiiii", x, o, p->won[0], p->won[1], p->closed, p->sent) : NULL;
    Py_XDECREF(x);
    Py_XDECREF(o);
    return out;
}

/* The marks, the board sent to and the boards won, packed: 81 + 81 bits, 4, 9 + 9 (the marks as
   each move left them in `packed`). */
static void identity(const void *kernel, const void *state, DfpnKey *key) {
    const Position *p = state;
    key->w[0] = p->packed[0];
    key->w[1] = p->packed[1];
    key->w[2] = p->packed[2] | (u64)(p->sent + 1) << 34 | (u64)p->won[0] << 38 | (u64)p->won[1] << 47;
}

/* The exact key, or under symmetries the least image's: for each image, X's boards 0-6 (63 bits),
   O's, then X's boards 7-8, O's, the board sent to (+1), the boards X won and O won. Compared from
   the last word, which holds the boards won and the corner boards' marks, so most images lose
   there. */
static void key(const void *kernel, const void *state, DfpnKey *key) {
    const Kernel *k = kernel;
    const Position *p = state;
    if (k->symmetries == 1) {
        identity(kernel, state, key);
        return;
    }
    for (int s = 0; s < k->symmetries; s++) {
        const uint8_t *to = k->board_to[s];
        const uint16_t *map = k->chunk_to[s];
        uint16_t image[2][9];
        for (int b = 0; b < 9; b++) image[0][to[b]] = map[p->mark[0][b]], image[1][to[b]] = map[p->mark[1][b]];
        DfpnKey mine = {{0, 0, (u64)image[0][7] | (u64)image[0][8] << 9 | (u64)image[1][7] << 18 | (u64)image[1][8] << 27
                              | (u64)(p->sent < 0 ? 0 : to[p->sent] + 1) << 36 | (u64)map[p->won[0]] << 40
                              | (u64)map[p->won[1]] << 49}};
        if (s && mine.w[2] > key->w[2]) continue;
        for (int b = 0; b < 7; b++) mine.w[0] |= (u64)image[0][b] << 9 * b, mine.w[1] |= (u64)image[1][b] << 9 * b;
        if (!s || mine.w[2] < key->w[2] || (mine.w[2] == key->w[2]
                                             && (mine.w[1] < key->w[1] || (mine.w[1] == key->w[1] && mine.w[0] < key->w[0]))))
            *key = mine;
    }
}

/* ---- critical squares: engine.py's functions of the same names, move for move ------------------ */

/* Open boards not yet won where `player`, if allowed to play there, wins the whole game at once. */
static int threat_boards(const Position *p, int player) {
    int meta = COMPLETERS[p->won[player - 1]] & ~(p->closed | p->won[0] | p->won[1]) & FULL9, out = 0;
    for (int b = 0; b < 9; b++)
        if (meta >> b & 1 && COMPLETERS[p->mark[player - 1][b]] & empty(p, b)) out |= 1 << b;
    return out;
}

/* The moves that win the game at once for the player to move, ascending; how many. */
static int immediate_wins(const Position *p, int *out) {
    int player = mover(NULL, p), n = 0, allowed = threat_boards(p, player);
    if (p->sent >= 0) allowed &= 1 << p->sent;
    for (int b = 0; b < 9; b++)
        if (allowed >> b & 1) {
            int cells = COMPLETERS[p->mark[player - 1][b]] & empty(p, b);
            for (int c = 0; c < 9; c++)
                if (cells >> c & 1) out[n++] = 9 * b + c;
        }
    return n;
}

/* After `move` (not ending the game) the opponent, whose threat boards before it are `threats`,
   has a move that wins at once. */
static int hands_over_win(const Kernel *k, const Position *p, int move, int threats) {
    if (!threats) return 0;
    int board = move / 9, cell = move % 9, opponent = 2 - (p->filled & 1);
    Position after;
    play(k, p, move, &after);
    if ((after.closed | after.won[0] | after.won[1]) >> board & 1
        || !(COMPLETERS[p->mark[opponent - 1][board]] & empty(&after, board)))
        threats &= ~(1 << board);
    if (after.closed >> cell & 1) return threats != 0;
    return threats >> cell & 1;
}

/* Open boards all of whose open cells send `player` to a board where `player` wins at once. */
static int poisoned_boards(const Position *p, int player) {
    int mine = threat_boards(p, player), out = 0;
    if (!mine) return 0;
    int sends_back = mine | p->closed;
    for (int b = 0; b < 9; b++)
        if (!(p->closed >> b & 1) && !(empty(p, b) & ~sends_back & FULL9)) out |= 1 << b;
    return out;
}

/* Every legal move of a position that is not over, ascending. */
static int legal_moves(const Position *p, int *out) {
    int boards = p->sent >= 0 ? 1 << p->sent : FULL9 & ~p->closed, n = 0;
    for (int b = 0; b < 9; b++)
        if (boards >> b & 1) {
            int cells = empty(p, b);
            for (int c = 0; c < 9; c++)
                if (cells >> c & 1) out[n++] = 9 * b + c;
        }
    return n;
}

static int marks_needed(const Position *p, int player, int lowered);

/* CriticalSquares.candidates: the moves to search, best first; how many. */
static int critical_candidates(const Kernel *k, const Position *p, const int *moves, int count, int prover_moves, int *out) {
    int wins[81], nwins = immediate_wins(p, wins), n = 0;
    if (nwins) {
        if (prover_moves) {
            out[0] = wins[0];
            return 1;
        }
        memcpy(out, wins, nwins * sizeof *wins);
        n = nwins;
        for (int i = 0; i < count; i++) {
            int known = 0;
            for (int j = 0; j < nwins; j++) known |= wins[j] == moves[i];
            if (!known) out[n++] = moves[i];
        }
        return n;
    }
    int player = mover(NULL, p), poisoned = poisoned_boards(p, player), threats = threat_boards(p, 3 - player);
    int rest[81], losing[81], nrest = 0, nlosing = 0;
    for (int i = 0; i < count; i++) {
        int move = moves[i];
        if (hands_over_win(k, p, move, threats)) losing[nlosing++] = move;
        else if (poisoned >> (move % 9) & 1 && move % 9 != move / 9) out[n++] = move;
        else rest[nrest++] = move;
    }
    memcpy(out + n, rest, nrest * sizeof *rest);
    n += nrest;
    if (prover_moves && k->win_by >= 0) { /* CriticalSquares.candidates: drop moves that cannot win in time */
        int left = k->win_by - p->filled - 1, kept = 0;
        left = left < 0 ? -1 : left / 2; /* Python's floor division */
        for (int i = 0; i < n; i++) {
            Position after;
            play(k, p, out[i], &after);
            if (marks_needed(&after, player, -1) <= left) out[kept++] = out[i];
        }
        return kept;
    }
    if (!prover_moves) {
        memcpy(out + n, losing, nlosing * sizeof *losing);
        n += nlosing;
    }
    return n;
}

/* Children of `p` for `count` moves, in that order; their keys left for the caller. */
static void children(const Kernel *k, const Position *p, const int *moves, int count, DfpnChild *out) {
    for (int i = 0; i < count; i++) {
        DfpnChild *c = &out[i];
        Position *after = (Position *)c->state;
        play(k, p, moves[i], after);
        c->result = result(k, after);
        c->move = moves[i];
    }
}

static int expand(const void *kernel, const void *state, int prover, DfpnChild *out) {
    const Kernel *k = kernel;
    const Position *p = state;
    int moves[81], order[81], count = legal_moves(p, moves);
    const int *chosen = moves;
    if (k->critical) {
        count = critical_candidates(k, p, moves, count, mover(k, p) == prover, order);
        chosen = order;
    }
    children(k, p, chosen, count, out);
    for (int i = 0; i < count; i++) key(k, out[i].state, &out[i].key);
    return count;
}

static int legal(const void *kernel, const void *state, DfpnChild *out) {
    int moves[81], count = legal_moves(state, moves);
    children(kernel, state, moves, count, out);
    return count;
}

/* ---- the meta-line count: engine.py's marks_needed and CriticalSquares.closure ---------------- */

#define NEVER 255   /* no meta line is left to the player */
#define NO_MOVE 255 /* a count closure's first byte when it counts at the position itself */
#define NEST 3 /* deep records nest this deep at most: 3 + 9 (3 + 9 (3 + 9 * 2)) = 1,731 bytes */
#define REFUTE_NEST 2 /* a win claim's search refutes with records nested this deep (engine.py REFUTE_NEST) */
#define DEEP 254    /* a count closure's first byte when it names a move and a closure of each reply */
#define ESTIMATE_BITS 5   /* engine.py ESTIMATE_BITS: each move of slack multiplies a first proof number by 32 */
#define ESTIMATE_SLACK 10 /* engine.py ESTIMATE_SLACK: the slack counted at most (81 children of 2^45 stay below INF) */
#define ESTIMATE_WIN_BITS 2   /* engine.py ESTIMATE_WIN_BITS: each mark a side lacks multiplies a win claim's first number by 4 */
#define ESTIMATE_WIN_MARKS 10 /* engine.py ESTIMATE_WIN_MARKS: the marks counted at most */

/* COST3[code]: 3 minus the marks of "mine" on the fullest line of a board holding no mark of
   "theirs", NEVER when every line holds one; code = TERN[mine] + 2 TERN[theirs], the board in base 3. */
static uint8_t COST3[19683];
static uint16_t TERN[512];

static void init_costs(void) {
    static const int lines[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};
    for (int m = 0; m < 512; m++) {
        TERN[m] = 0;
        for (int c = 8; c >= 0; c--) TERN[m] = (uint16_t)(3 * TERN[m] + (m >> c & 1));
    }
    for (int mine = 0; mine < 512; mine++)
        for (int theirs = 0; theirs < 512; theirs++) {
            if (mine & theirs) continue;
            int cost = NEVER;
            for (int l = 0; l < 8; l++)
                if (!(theirs & lines[l])) {
                    int missing = 3 - __builtin_popcount(mine & lines[l]);
                    if (missing < cost) cost = missing;
                }
            COST3[TERN[mine] + 2 * TERN[theirs]] = (uint8_t)cost;
        }
}

/* The fewest marks player `me + 1` must still place to win board `b`: 0 if it won it, NEVER if
   the other won it or it is full, else 3 minus its marks on the fullest local line without the
   other's mark. Each move places one mark: a floor on moves to win the board. */
static int board_cost(const Position *p, int me, int b) {
    if (p->won[me] >> b & 1) return 0;
    if (p->won[1 - me] >> b & 1 || !empty(p, b)) return NEVER;
    return COST3[TERN[p->mark[me][b]] + 2 * TERN[p->mark[1 - me][b]]];
}

static const int META[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

/* The cheapest meta line for these board costs (NEVER at most); `lowered`: a board counted one
   lower (unless 0 or NEVER), the count after a move there. */
static int meta_min(const int cost[9], int lowered) {
    int best = NEVER, low = lowered >= 0 && cost[lowered] > 0 && cost[lowered] < NEVER ? lowered : 9;
    for (int l = 0; l < 8; l++) {
        int sum = cost[META[l][0]] + cost[META[l][1]] + cost[META[l][2]];
        sum -= META[l][0] == low || META[l][1] == low || META[l][2] == low;
        if (sum < best) best = sum;
    }
    return best;
}

/* The fewest marks `player` must still place to hold a meta line (engine.py marks_needed): per
   meta line the sum of its boards' `board_cost`. `lowered`: as `meta_min`. */
static int marks_needed(const Position *p, int player, int lowered) {
    int cost[9];
    for (int b = 0; b < 9; b++) cost[b] = board_cost(p, player - 1, b);
    return meta_min(cost, lowered);
}

/* The boards b where the cheapest meta line avoiding b costs at most `left`: a move of the other
   player there changes only b's cost and a move of `cost`'s player lowers one board by one at
   most, so after them the count is still at most `left` (count_record's moves there all fail). */
static int hopeless_boards(const int cost[9], int left) {
    int out = 0;
    for (int l = 0; l < 8; l++)
        if (cost[META[l][0]] + cost[META[l][1]] + cost[META[l][2]] <= left)
            out |= FULL9 & ~(1 << META[l][0] | 1 << META[l][1] | 1 << META[l][2]);
    return out;
}

/* Play's rules for `move` by the player to move in `p`, without the copy of the position (the
   closure's counts ask them of moves they never play): whether it wins its board, and the boards
   closed after it in `closed`. */
static int marks(const Kernel *k, const Position *p, int move, int *closed) {
    int board = move / 9, cell = move % 9, bit = 1 << board;
    int wins = !((p->won[0] | p->won[1]) & bit) && WON[p->mark[p->filled & 1][board] | 1 << cell];
    *closed = p->closed | (wins && !k->open ? bit : 0) | (empty(p, board) == 1 << cell ? bit : 0);
    return wins;
}

/* After `move` by the player to move in `p` (play goes on in `p`): the board the next player is
   sent to, or -1 where the move ends play or sends to a closed board (deep_record's move that
   "fails at once"). */
static int sends_to(const Kernel *k, const Position *p, int move) {
    int closed, wins = marks(k, p, move, &closed);
    if (wins && WON[p->won[p->filled & 1] | 1 << move / 9]) return -1;
    return closed >> move % 9 & 1 ? -1 : move % 9;
}

/* Player `me + 1`'s cost of the board of `move` (board_cost) after the other player, to move in
   `p`, plays it: play's rules, without the copy of the position. */
static int marked_cost(const Kernel *k, const Position *p, int me, int move) {
    int b = move / 9, bit = 1 << b, closed;
    if (p->won[me] & bit) return 0;
    if (p->won[1 - me] & bit || marks(k, p, move, &closed) || closed & bit) return NEVER; /* theirs, or full */
    return COST3[TERN[p->mark[me][b]] + 2 * TERN[p->mark[1 - me][b] | 1 << (move % 9)]];
}

/* CriticalSquares.count_record: a two-byte record closing `p` for a no-loss claim `plies_left`
   plies ahead -- (NO_MOVE, count) where the opponent needs more marks than its moves left, or
   (the index of the first legal move that sends the opponent to a board where its first move
   lowers the count to no less than `count`, more than its moves left after it, count) -- or 0.
   The moves in `hopeless_boards` are skipped: the same record, fewer moves tried. `cost`: the
   opponent's board costs in `p` (board_cost; left as given). */
static int count_record(const Kernel *k, const Position *p, int cost[9], int opponent, int plies_left,
                        unsigned char *out) {
    int me = opponent - 1, needed = meta_min(cost, -1), left = 81 - p->filled;
    if (needed > (plies_left < left ? plies_left : left) / 2) {
        out[0] = NO_MOVE, out[1] = (unsigned char)needed;
        return 2;
    }
    left = ((plies_left - 1 < left - 1 ? plies_left - 1 : left - 1) + 1) / 2 - 1; /* the opponent's, after a move */
    int hopeless = hopeless_boards(cost, left), boards = p->sent >= 0 ? 1 << p->sent : FULL9 & ~p->closed;
    if (!(boards & ~hopeless)) return 0;
    int moves[81], count = legal_moves(p, moves);
    for (int i = 0; i < count; i++) {
        if (hopeless >> (moves[i] / 9) & 1) continue;
        int sent = sends_to(k, p, moves[i]);
        if (sent < 0) continue;
        int board = moves[i] / 9, was = cost[board]; /* a move changes the opponent's cost of its own board only */
        cost[board] = marked_cost(k, p, me, moves[i]);
        needed = meta_min(cost, sent);
        cost[board] = was;
        if (needed > left) {
            out[0] = (unsigned char)i, out[1] = (unsigned char)needed;
            return 2;
        }
    }
    return 0;
}

#define SUB_BYTES 192 /* the longest record nested NEST - 1 deep: 3 + 9 (3 + 9 * 2) */
#if NEST > 3
#error "SUB_BYTES holds records nested 2 deep at most"
#endif

/* The reply `move` in board `s` of the player to move in `p`, player `me + 1`: its own cost of
   board s afterwards (board_cost) and whether play ends there (result != DFPN_OPEN: it wins the
   game or closes the last board). */
static int reply_cost(const Kernel *k, const Position *p, int me, int move, int *ends) {
    int s = move / 9, bit = 1 << s, closed, wins = marks(k, p, move, &closed);
    *ends = (wins && WON[p->won[me] | bit]) || closed == FULL9;
    if (p->won[me] & bit || wins) return 0;
    if (p->won[1 - me] & bit || closed & bit) return NEVER; /* the other's, or full now */
    return COST3[TERN[p->mark[me][s] | 1 << (move % 9)] + 2 * TERN[p->mark[1 - me][s]]];
}

/* dfpn.h `close`, CriticalSquares.closure: with the family's hooks, a bounded no-loss claim holds
   where a two-byte record closes the position, or -- record (DEEP, i, k, k records nested `nest`
   - 1 deep) -- after a legal move i of the prover that sends the opponent to a board where each of
   its k moves, in order, leaves a position play goes on from that such a record closes two plies
   further on (checker/uttt_count.py check_count: the proof's subtree written out, sound as the
   two-byte form is). Of the moves i that close, the record is the shortest (the first move i of
   those at the least length; each reply's record the shortest too): the checker's work is about
   the record's length, and the records of the first closing move were 1.7 times as long on the
   within-23 proof. Which positions close does not depend on the choice. Returns the record's
   length, or 0 when no record closes or the shortest is longer than `limit`: a move is given up as
   soon as its records cannot beat the best so far (nor `limit`), and each reply's record is asked
   within what is left, so the answer is the same as trying every move to the end. The moves are
   tried fewest replies first (the shortest records are likeliest there, so the bound is low
   early); the replies most dangerous first (the opponent's count after them lowest; one that ends
   play fails at once), so a move that fails fails early; the records are written in move order,
   as the Python hook writes them. `cost`: as count_record's; a move changes the cost of the board
   it is played in only, so each position's is its parent's with that board's cost taken anew.
   `any`: a win claim's refutation, whose record is dropped (dfpn.c): the first record found will do.
   Nearly all the closure's time is spent on moves that fail, so a move's replies are counted, and
   the replies' counts taken, without playing them (sends_to, reply_cost); only the positions
   recursed into are played. */
static int deep_record(const Kernel *k, const Position *p, int cost[9], int opponent, int plies_left, int nest,
                       int limit, int any, unsigned char *out) {
    if (limit < 2) return 0;
    int length = count_record(k, p, cost, opponent, plies_left, out);
    if (length || !nest) return length;
    int moves[81], count = legal_moves(p, moves), me = opponent - 1, order[81], replies[81], sent[81], best = 0, best_i = 0;
    for (int i = 0; i < count; i++) { /* by replies ascending, then move order; a move that fails at once last */
        int b = moves[i] / 9, cell = moves[i] % 9;
        sent[i] = sends_to(k, p, moves[i]);
        replies[i] = sent[i] < 0 ? 99 : __builtin_popcount((unsigned)(empty(p, cell) & ~(b == cell ? 1 << cell : 0)));
        int at = i;
        for (; at > 0 && replies[order[at - 1]] > replies[i]; at--) order[at] = order[at - 1];
        order[at] = i;
    }
    for (int j = 0; j < count && replies[order[j]] <= 9; j++) {
        int i = order[j], n = replies[i], s = sent[i];
        /* the longest record that still wins: below the best (at its length if i comes first), at most `limit` */
        int bound = !best ? limit : i < best_i ? best : best - 1;
        if (3 + 2 * n > bound) {
            if (!best || 3 + 2 * n > best) break; /* the later moves have as many replies or more */
            continue;
        }
        Position after, reply;
        int moves_in[81], danger[9], by_danger[9], sizes[9], m = 0, c[9], ends[9];
        play(k, p, moves[i], &after);
        legal_moves(&after, moves_in);
        memcpy(c, cost, sizeof c);
        c[moves[i] / 9] = board_cost(&after, me, moves[i] / 9);
        /* only board s's cost differs between the replies: the count after reply r is the least of
           the lines avoiding s and, through s, the other two boards' costs plus s's new cost */
        int was = c[s], costs[9], avoiding = NEVER, through = NEVER;
        for (int l = 0; l < 8; l++) {
            int a = META[l][0], b = META[l][1], d = META[l][2], sum = c[a] + c[b] + c[d];
            if (a == s || b == s || d == s) {
                if (sum - c[s] < through) through = sum - c[s];
            } else if (sum < avoiding) {
                avoiding = sum;
            }
        }
        for (int r = 0; r < n; r++) { /* sent to a board: 9 replies at most */
            costs[r] = reply_cost(k, &after, me, moves_in[r], &ends[r]);
            danger[r] = ends[r] ? -1 : through + costs[r] < avoiding ? through + costs[r] : avoiding;
            int at = r;
            for (; at > 0 && danger[by_danger[at - 1]] > danger[r]; at--) by_danger[at] = by_danger[at - 1];
            by_danger[at] = r;
        }
        unsigned char sub[9][SUB_BYTES];
        int total = 3 + 2 * n; /* the record's length so far, each reply not yet asked taken at 2 bytes */
        for (; m < n; m++) {
            int r = by_danger[m];
            if (danger[r] < 0) break;
            c[s] = costs[r];
            play(k, &after, moves_in[r], &reply);
            sizes[r] = deep_record(k, &reply, c, opponent, plies_left - 2, nest - 1, bound - total + 2, any, sub[r]);
            if (!sizes[r]) break;
            total += sizes[r] - 2;
        }
        c[s] = was;
        if (m == n) {
            int at = 3;
            out[0] = DEEP, out[1] = (unsigned char)i, out[2] = (unsigned char)n;
            for (int r = 0; r < n; r++) {
                memcpy(out + at, sub[r], (size_t)sizes[r]);
                at += sizes[r];
            }
            if (any) return at;
            best = at, best_i = i;
        }
    }
    return best;
}

static int close_by_count(const void *kernel, const void *state, int prover, int no_loss, int plies_left, int written,
                          unsigned char *out) {
    const Kernel *k = kernel;
    if (!k->critical || !no_loss) return 0;
    int cost[9];
    for (int b = 0; b < 9; b++) cost[b] = board_cost(state, 2 - prover, b); /* the opponent's */
    if (plies_left < 0) { /* unbounded: (NO_MOVE, count) alone, the opponent short of the cells left (engine.py closure) */
        const Position *p = state;
        int needed = meta_min(cost, -1);
        if (needed <= (81 - p->filled) / 2) return 0;
        out[0] = NO_MOVE, out[1] = (unsigned char)needed;
        return 2;
    }
    int refute = k->win_by >= 0; /* a win claim's refutation: its record is dropped, the first will do */
    return deep_record(k, state, cost, 3 - prover, plies_left, refute ? REFUTE_NEST : NEST, DFPN_CLOSURE_BYTES,
                       refute || !written, out); /* the search asks whether; the walk writes the shortest */
}

/* CriticalSquares.estimate: first numbers at a position the search has not seen, from the marks
   each side still needs for a meta line (marks_needed). A win claim, at every position: pn
   4^(mine - 1), dn 4^(theirs - 1), mine the prover's marks, theirs the opponent's (10 at most).
   A bounded no-loss claim, at a prover's position only: pn 32^(slack - 1), dn 1, where slack is
   the opponent's moves left before the bound less the marks it still needs, plus 1 (the count
   closes a position where the slack is below 1). Everything else, and searches without
   `estimating`, keep 1 and 1. */
static int capped_marks(const Position *p, int player) {
    int marks = marks_needed(p, player, -1);
    return marks < ESTIMATE_WIN_MARKS ? marks : ESTIMATE_WIN_MARKS;
}

static void estimate(const void *kernel, const void *state, int prover, int no_loss, int plies_left, u64 *pn, u64 *dn) {
    const Kernel *k = kernel;
    const Position *p = state;
    if (!k->estimating) return;
    int opponent = 3 - prover;
    if (!no_loss) {
        int mine = capped_marks(p, prover), theirs = capped_marks(p, opponent);
        *pn = (u64)1 << ESTIMATE_WIN_BITS * (mine > 1 ? mine - 1 : 0);
        *dn = (u64)1 << ESTIMATE_WIN_BITS * (theirs > 1 ? theirs - 1 : 0);
        return;
    }
    if (plies_left < 0 || mover(kernel, state) != prover) return;
    int left = 81 - p->filled, theirs = (plies_left < left ? plies_left : left) / 2;
    int slack = theirs - marks_needed(p, opponent, -1) + 1;
    if (slack > 1) *pn = (u64)1 << ESTIMATE_BITS * (slack < ESTIMATE_SLACK ? slack - 1 : ESTIMATE_SLACK - 1);
}

const DfpnFamily dfpn_uttt = {
    .name = "uttt",
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
    .close = close_by_count,
    .estimate = estimate,
};

_Static_assert(sizeof(Position) <= DFPN_STATE_BYTES, "a position fits a child's state");
