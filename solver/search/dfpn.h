/* dfpn.h - the interface between the generic df-pn core (dfpn.c) and a family's kernel.

   A kernel is one family's positions in C: it turns a family configuration (a Python tuple the
   family's wrapper builds from its rules and search hooks) into a kernel value, and then answers
   the questions df-pn asks about a position: who moves, is it over, its table key, and its
   candidate children best first, with the same ordering and pruning as the family's Python
   SearchHooks; and, to write a proved claim's certificate, its legal moves in canonical order and
   its exact identity. The core never looks inside a state: it copies `state_bytes` bytes.
   A family's moves only add (every move places a mark): a position never recurs below itself,
   nor below a position with as many moves played, so below one child the search never meets a
   sibling; the core reads a node's children's numbers from the table once on that ground. */
#ifndef CERTIFY_DFPN_H
#define CERTIFY_DFPN_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>

#define DFPN_STATE_BYTES 96 /* room for the largest family's position */
#define DFPN_OPEN (-1)      /* a position's result while play goes on; else the winner, 0 a draw */
#define DFPN_CLOSURE_BYTES 2048 /* the most bytes one closure's record may take (uttt's deep counts: 1,731) */

/* The exact identity of a table entry: the whole key is stored, so a hash collision can cost
   work but never confuse two positions. */
typedef struct {
    uint64_t w[3];
} DfpnKey;

/* One candidate child as a kernel fills it in. */
typedef struct {
    DfpnKey key;
    uint64_t hash;   /* set by the core from the key */
    int32_t result;  /* DFPN_OPEN, or the winner (1, 2; 0 a draw) of a terminal child */
    int32_t move;    /* the family's move code, decoded by the family's Python wrapper */
    _Alignas(8) unsigned char state[DFPN_STATE_BYTES];
} DfpnChild;

typedef struct {
    const char *name;    /* the name the Python wrapper passes to select the family */
    size_t state_bytes;  /* at most DFPN_STATE_BYTES */
    /* A kernel from the family's configuration; NULL with a Python exception set. */
    void *(*create)(PyObject *config);
    void (*destroy)(void *kernel);
    int (*max_plies)(const void *kernel); /* the longest game: the search's depth bound */
    int (*max_moves)(const void *kernel); /* the most candidates one position can have */
    /* A position from its Python form; 0, or -1 with a Python exception set. */
    int (*parse)(const void *kernel, PyObject *position, void *state);
    int (*mover)(const void *kernel, const void *state);  /* 1 or 2 */
    int (*result)(const void *kernel, const void *state); /* DFPN_OPEN or the winner */
    void (*key)(const void *kernel, const void *state, DfpnKey *key);
    /* The candidate children of a position that is not over, best first: every move when the
       prover's opponent moves, and at the prover's turn every move that can still prove (the
       family's SearchHooks). Fills key, result, move and state; returns how many. */
    int (*expand)(const void *kernel, const void *state, int prover, DfpnChild *out);
    /* Every legal move of a position that is not over, in the family's canonical order (its
       Python engine's legal_moves, the order certificates index): fills result, move and state. */
    int (*legal)(const void *kernel, const void *state, DfpnChild *out);
    /* The exact identity of a position, as its Python engine's `key` tells positions apart (never
       a symmetric image): what the proof's canonical traversal merges transpositions by. */
    void (*identity)(const void *kernel, const void *state, DfpnKey *key);
    /* Optional (NULL: the family takes no policy): the position as a Python value its wrapper
       reads back into the engine's state (the kernel wrapper's `state`), a new reference, or NULL
       with a Python exception set. A search with a policy hands it to the policy at the prover's
       positions. */
    PyObject *(*export)(const void *kernel, const void *state);
    /* Optional (NULL: the family's proofs name no images): the identity (as `identity` gives it) of
       the position with the mark on cell i moved to cell permutation[i], for the strategy walk's
       images (solver/search/prooftree.py): a permutation the caller took from the family's own
       symmetries. */
    void (*image)(const void *kernel, const void *state, const unsigned char *permutation, DfpnKey *key);
    /* Optional (NULL: every reply is listed): for the strategy walk's `--blocks`, keep in place (in
       order) the legal children `legal[0..count)` of an opponent's position that a proof lists
       (prooftree.py `replies`: the blocks of a line `prover` completes next, when the opponent has
       none to complete) and return how many. */
    int (*listed)(const void *kernel, const void *state, int prover, DfpnChild *legal, int count);
    /* Optional (NULL: the family closes nothing): at a position where the prover moves, whether the
       family's knowledge proves the claim there without search. no_loss: the claim's kind;
       plies_left: the plies left before the claim's `within` bound (-1: unbounded). Returns the
       length (1..DFPN_CLOSURE_BYTES) of the closure's record written to `out` -- the bytes the
       certificate stores for it, in the checker's format for that family -- or 0 when it does not
       close, or -1 with a Python exception set. written: 1 when the record goes into a certificate
       (the strategy walk: the family's chosen record, e.g. the shortest), 0 when only whether the
       position closes matters (the search: any record will do, and may cost less to find). */
    int (*close)(const void *kernel, const void *state, int prover, int no_loss, int plies_left,
                 int written, unsigned char *out);
    /* Optional (NULL: 1 and 1 everywhere): the proof and disproof numbers of a position the table
       does not hold, the family's estimate of how far the claim is from settling there, given 1
       and 1 to change; arguments as `close`. Only the search's choices depend on them: a position
       is proved or disproved by its children's exact values as before. */
    void (*estimate)(const void *kernel, const void *state, int prover, int no_loss, int plies_left,
                     uint64_t *pn, uint64_t *dn);
} DfpnFamily;

/* The families compiled into the extension (solver/games/kernels.c), NULL-terminated. */
extern const DfpnFamily *const dfpn_families[];

#endif
