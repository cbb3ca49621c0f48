/* solitaire_nb_core._core: the one-deck fast state's complete searches, in C.
 *
 * A line-for-line port of solitaire_nb/solver/search.py (`_fast_search`, `_fast_dfs`),
 * fast.py (`_Fast`: moves, play with Citadel's autoplay, undo, keys, `_enter_fast`),
 * pruning.py (`FastPruning`: rules 3, 3c, 6, 8, 8b) and heuristics.py (`_score`,
 * `_dfs_moves`).  The Python modules are the reference: each search here examines the same
 * states in the same order, counts them the same way (the ledger too) and returns the same
 * verdict and line, so a capped verdict does not depend on whether this core is installed.
 * Which pruning rules apply is decided by the caller from the rules data (never a game's
 * name); their proofs are in docs/solver.md.  A won line is returned as the Python searches
 * describe it, (card, destination top or -1 home or -2 hole), and the caller replays it
 * through the engine before it counts.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define API_VERSION 1
#define MAXT 40                       /* most tableau piles (the depth-first codes need T + 4 <= 64) */
#define MAXMOVES 2048                 /* > MAXT * (MAXT + 1) + 4 * (MAXT + 1) */
#define KEYMAX (52 + MAXT + 8)        /* a key: the tableau's cards, T separators, 4 heights */

/* ------------------------------------------------------------------ the rules' data */
typedef struct {
    int T;
    uint64_t parent_bits[52];         /* bit y: card c may lie on card y */
    uint8_t parents[52][52];          /* the cards c may lie on, ascending */
    uint8_t nparents[52];
    uint8_t children[52][52];         /* the cards that may lie on c (rules 3 and 3c) */
    uint8_t nchildren[52];
    int empty_any, empty_king, takeback, autoplay, rule3, dead_ends, hole_dead_ends;
} Rules;

typedef struct {
    uint8_t n[MAXT];
    uint8_t c[MAXT][52];
    uint8_t h[4];
} Pos;

#define TOP(p, i) ((p)->c[i][(p)->n[i] - 1])

static int raw(Pos *p, int T, int a, int b)
{
    int c;
    if (a < T) {
        c = p->c[a][--p->n[a]];
    } else {
        int s = a - T;
        p->h[s]--;
        c = s * 13 + p->h[s];
    }
    if (b < T)
        p->c[b][p->n[b]++] = (uint8_t)c;
    else
        p->h[b - T]++;
    return c;
}

/* `_Fast.play`: the move, then (with autoplay) every top it lets go home, again and again,
 * never the moved card itself; the cards sent are appended to `aut` as (pile, card). */
static int play(const Rules *R, Pos *p, int a, int b, uint8_t *aut)
{
    int T = R->T;
    int c = raw(p, T, a, b);
    int na = 0, nl = 0, ng = 0;
    int look[160], grown[160];
    if (!R->autoplay)
        return 0;
    if (b < T) {
        int x;
        if (a >= T || p->n[a] == 0)
            return 0;
        x = TOP(p, a);
        if (p->h[x / 13] != x % 13)
            return 0;
    }
    if (a < T)
        look[nl++] = a;
    if (b >= T)
        grown[ng++] = b - T;
    while (nl || ng) {
        if (ng) {
            int s = grown[--ng];
            if (p->h[s] < 13) {
                int y = s * 13 + p->h[s], i;
                for (i = 0; i < T; i++)
                    if (p->n[i] && TOP(p, i) == y) {
                        look[nl++] = i;
                        break;
                    }
            }
            continue;
        }
        {
            int i = look[--nl];
            if (p->n[i]) {
                int x = TOP(p, i);
                if (p->h[x / 13] == x % 13 && x != c) {
                    p->n[i]--;
                    p->h[x / 13]++;
                    aut[2 * na] = (uint8_t)i;
                    aut[2 * na + 1] = (uint8_t)x;
                    na++;
                    look[nl++] = i;
                    grown[ng++] = x / 13;
                }
            }
        }
    }
    return na;
}

static void undo_move(const Rules *R, Pos *p, int a, int b, const uint8_t *aut, int na)
{
    int k;
    for (k = na - 1; k >= 0; k--) {
        int i = aut[2 * k], x = aut[2 * k + 1];
        p->h[x / 13]--;
        p->c[i][p->n[i]++] = (uint8_t)x;
    }
    raw(p, R->T, b, a);
}

/* `fast._describe`: (card, destination top), -1 for home, -2 for a hole */
static void describe(const Rules *R, const Pos *p, int a, int b, int *card, int *dest)
{
    int T = R->T;
    *card = a < T ? TOP(p, a) : (a - T) * 13 + p->h[a - T] - 1;
    if (b >= T)
        *dest = -1;
    else
        *dest = p->n[b] ? TOP(p, b) : -2;
}

/* `_Fast.moves`: home first, then onto tops (lowest card id first) and into the first hole,
 * take-backs last */
static int gen_moves(const Rules *R, const Pos *p, uint8_t *out)
{
    int T = R->T, j, k, no = 0, nout = 0, nlater = 0, hole = -1;
    int where[52], order[MAXT];
    uint8_t later[2 * MAXMOVES];
    uint64_t tops = 0;
    for (j = 0; j < T; j++) {
        if (p->n[j]) {
            int x = TOP(p, j);
            where[x] = j;
            tops |= 1ULL << x;
            order[no++] = j;
        } else if (hole < 0) {
            hole = j;
        }
    }
    for (k = 0; k < no; k++) {
        int i = order[k], c = TOP(p, i);
        uint64_t fits;
        if (p->h[c / 13] == c % 13) {
            out[2 * nout] = (uint8_t)i;
            out[2 * nout + 1] = (uint8_t)(T + c / 13);
            nout++;
        }
        fits = R->parent_bits[c] & tops;
        while (fits) {
            int y = __builtin_ctzll(fits);
            later[2 * nlater] = (uint8_t)i;
            later[2 * nlater + 1] = (uint8_t)where[y];
            nlater++;
            fits &= fits - 1;
        }
        if (hole >= 0 && p->n[i] > 1 && (R->empty_any || (R->empty_king && c % 13 == 12))) {
            later[2 * nlater] = (uint8_t)i;
            later[2 * nlater + 1] = (uint8_t)hole;
            nlater++;
        }
    }
    memcpy(out + 2 * nout, later, 2 * (size_t)nlater);
    nout += nlater;
    if (R->takeback) {
        int s;
        for (s = 0; s < 4; s++) {
            if (p->h[s]) {
                int c = s * 13 + p->h[s] - 1, d;
                for (d = 0; d < R->nparents[c]; d++) {
                    int y = R->parents[c][d];
                    if (tops >> y & 1) {
                        out[2 * nout] = (uint8_t)(T + s);
                        out[2 * nout + 1] = (uint8_t)where[y];
                        nout++;
                    }
                }
                if (hole >= 0 && (R->empty_any || (R->empty_king && c % 13 == 12))) {
                    out[2 * nout] = (uint8_t)(T + s);
                    out[2 * nout + 1] = (uint8_t)hole;
                    nout++;
                }
            }
        }
    }
    return nout;
}

/* ------------------------------------------------------------------ pruning rules */
/* rules 3 and 3c: every card that may lie on c is home, or is the next card of its
 * foundation with every card that may lie on it home */
static int harmless_children(const Rules *R, const Pos *p, int c)
{
    int k, k2;
    for (k = 0; k < R->nchildren[c]; k++) {
        int x = R->children[c][k], s = x / 13, r = x % 13 + 1;
        if (p->h[s] < r) {
            int y;
            if (p->h[s] != r - 1)
                return 0;
            y = s * 13 + r - 1;
            for (k2 = 0; k2 < R->nchildren[y]; k2++) {
                int z = R->children[y][k2];
                if (p->h[z / 13] < z % 13 + 1)
                    return 0;
            }
        }
    }
    return 1;
}

/* `FastPruning.safe_move`: the first pile whose top rule 3 (or 3c) sends home, or -1 */
static int safe_move(const Rules *R, const Pos *p)
{
    int i;
    if (!R->rule3)
        return -1;
    for (i = 0; i < R->T; i++)
        if (p->n[i]) {
            int c = TOP(p, i);
            if (p->h[c / 13] == c % 13 && harmless_children(R, p, c))
                return i;
        }
    return -1;
}

/* `FastPruning.stuck`: rules 8 and 8b */
static int stuck(const Rules *R, const Pos *p)
{
    int T = R->T, i, u, any_hole = R->empty_any, king_hole = R->empty_king;
    int freei[MAXT], pending[MAXT], np = 0, reach[4];
    uint64_t tops = 0;
    if (any_hole)
        for (i = 0; i < T; i++)
            if (!p->n[i])
                return 0;
    for (i = 0; i < T; i++) {
        freei[i] = p->n[i] - 1;
        if (p->n[i]) {
            tops |= 1ULL << TOP(p, i);
            pending[np++] = i;
        }
    }
    for (u = 0; u < 4; u++) {
        int r = p->h[u];
        while (r < 13 && (tops >> (u * 13 + r) & 1))
            r++;
        reach[u] = r;
    }
    while (np) {
        int nb = 0, progress = 0, k;
        for (k = 0; k < np; k++) {
            int pi = pending[k], j = freei[pi];
            const uint8_t *q = p->c[pi];
            while (j >= 0) {
                int x = q[j];
                if (!(x % 13 < reach[x / 13] || (R->parent_bits[x] & tops) || (king_hole && x % 13 == 12)))
                    break;
                j--;
                if (j >= 0) {
                    int y = q[j], uu = y / 13;
                    tops |= 1ULL << y;
                    if (y % 13 == reach[uu]) {
                        int r = reach[uu] + 1;
                        while (r < 13 && (tops >> (uu * 13 + r) & 1))
                            r++;
                        reach[uu] = r;
                    }
                }
            }
            if (j != freei[pi]) {
                if (j < 0 && any_hole)
                    return 0;
                freei[pi] = j;
                progress = 1;
            }
            if (j >= 0)
                pending[nb++] = pi;
        }
        if (!progress || (reach[0] == 13 && reach[1] == 13 && reach[2] == 13 && reach[3] == 13))
            break;
        np = nb;
    }
    return !(reach[0] == 13 && reach[1] == 13 && reach[2] == 13 && reach[3] == 13);
}

/* `FastPruning.dead`: rule 6 on the piles `only` (or all when `na` < 0) */
static int dead_pile(const Rules *R, const Pos *p, int i)
{
    int low[4] = {99, 99, 99, 99}, j;
    const uint8_t *q = p->c[i];
    for (j = 0; j < p->n[i]; j++) {
        int x = q[j], s = x / 13, r = x % 13;
        if (low[s] < r && !(R->empty_king && r == 12)) {
            int k, free = 0;
            for (k = 0; k < R->nparents[x] && !free; k++) {
                int y = R->parents[x][k], j2, under = 0;
                if (p->h[y / 13] <= y % 13) {
                    for (j2 = 0; j2 < j; j2++)
                        if (q[j2] == y) {
                            under = 1;
                            break;
                        }
                    if (!under)
                        free = 1;
                }
            }
            if (!free)
                return 1;
        }
        if (r < low[s])
            low[s] = r;
    }
    return 0;
}

static int dead(const Rules *R, const Pos *p, int a, int b)
{
    int i;
    if (!R->dead_ends)
        return 0;
    if (a >= 0)
        return dead_pile(R, p, a) || dead_pile(R, p, b);
    for (i = 0; i < R->T; i++)
        if (dead_pile(R, p, i))
            return 1;
    return 0;
}

/* ------------------------------------------------------------------ keys */
static int pile_cmp(const uint8_t *x, int nx, const uint8_t *y, int ny)
{
    int m = nx < ny ? nx : ny, r = memcmp(x, y, (size_t)m);
    return r ? r : nx - ny;
}

/* `_Fast.key`: the piles' bytes sorted, joined by 0xff, then 0xff and the 4 heights */
static int make_key(int T, const Pos *p, uint8_t *out)
{
    int idx[MAXT], i, k, len = 0;
    for (i = 0; i < T; i++) {
        int j = i;
        while (j > 0 && pile_cmp(p->c[idx[j - 1]], p->n[idx[j - 1]], p->c[i], p->n[i]) > 0) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
    for (k = 0; k < T; k++) {
        int q = idx[k];
        memcpy(out + len, p->c[q], p->n[q]);
        len += p->n[q];
        out[len++] = 0xff;
    }
    memcpy(out + len, p->h, 4);
    return len + 4;
}

/* `_restore_fast`: the position a key describes, piles in the key's order */
static void restore(int T, Pos *p, const uint8_t *key, int len)
{
    int i = 0, k = 0;
    for (i = 0; i < T; i++) {
        int n = 0;
        while (key[k] != 0xff)
            p->c[i][n++] = key[k++];
        p->n[i] = (uint8_t)n;
        k++;
    }
    memcpy(p->h, key + len - 4, 4);
}

static uint64_t hash_key(const uint8_t *k, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n, v;
    while (n >= 8) {
        memcpy(&v, k, 8);
        h = (h ^ v) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
        k += 8;
        n -= 8;
    }
    v = 0;
    memcpy(&v, k, n);
    h = (h ^ v) * 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
    return h;
}

/* ------------------------------------------------------------------ a table of keys */
/* Keys are stored packed, which changes nothing a search sees (the same keys, the same answer
 * to "seen?"): the bytes before the last 4 at 6 bits each (a byte 0..62 as itself, 0xff, the
 * piles' separator, as 63), the last 4 (the heights) at 4 bits each.  A key with any other byte
 * is stored as it is.  Packing is one-to-one among keys of one length, and an entry records the
 * key's length and whether it was packed, so two keys are equal exactly when their lengths,
 * flags and stored bytes are. */
#define PACKED 0x8000U
#define NO_PARENT 0xffffffffU

typedef struct {
    uint32_t off;    /* where the stored key starts in the arena */
    uint32_t hash;   /* the key's hash, high half */
    uint32_t parent; /* entry of the parent key, NO_PARENT for the root */
    uint16_t len;    /* the key's length, | PACKED when stored packed */
    uint8_t a, b;
} Entry;

#define ENTRY_PARENT(e) ((e)->parent == NO_PARENT ? (int64_t)-1 : (int64_t)(e)->parent)

typedef struct {
    uint8_t *arena;
    size_t alen, acap;
    Entry *e;
    size_t n, ecap;
    uint32_t *idx;   /* entry + 1, 0 free */
    size_t icap;
} Table;

/* a byte's 6-bit code (0x40: the byte cannot be packed), and back */
static uint8_t SYM[256], BYTE[64];

static void init_codes(void)
{
    int i;
    for (i = 0; i < 256; i++)
        SYM[i] = i < 63 ? (uint8_t)i : i == 0xff ? 63 : 0x40;
    for (i = 0; i < 64; i++)
        BYTE[i] = i == 63 ? 0xff : (uint8_t)i;
}

/* the stored form of a key: its length (flag included) and bytes in `out` (at most `len` bytes) */
static unsigned pack_key(const uint8_t *k, int len, uint8_t *out, int *slen)
{
    int n = len - 4, i, o = 0, bits = 0;
    uint32_t acc = 0;
    if (n < 0 || len >= (int)PACKED || (k[n] | k[n + 1] | k[n + 2] | k[n + 3]) > 15)
        goto as_is;
    for (i = 0; i + 4 <= n; i += 4) {
        uint32_t a = SYM[k[i]], b = SYM[k[i + 1]], c = SYM[k[i + 2]], d = SYM[k[i + 3]];
        if ((a | b | c | d) & 0x40)
            goto as_is;
        acc = a << 18 | b << 12 | c << 6 | d;
        out[o] = (uint8_t)(acc >> 16);
        out[o + 1] = (uint8_t)(acc >> 8);
        out[o + 2] = (uint8_t)acc;
        o += 3;
    }
    acc = 0;
    for (; i < n; i++) {
        uint32_t v = SYM[k[i]];
        if (v & 0x40)
            goto as_is;
        acc = acc << 6 | v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    if (bits)
        out[o++] = (uint8_t)(acc << (8 - bits));
    out[o++] = (uint8_t)(k[n] << 4 | k[n + 1]);
    out[o++] = (uint8_t)(k[n + 2] << 4 | k[n + 3]);
    *slen = o;
    return (unsigned)len | PACKED;
as_is:
    memcpy(out, k, (size_t)len);
    *slen = len;
    return (unsigned)len;
}

/* bytes an entry's stored key takes */
static int stored_len(unsigned flen)
{
    int len = (int)(flen & ~PACKED);
    return flen & PACKED ? ((len - 4) * 6 + 7) / 8 + 2 : len;
}

/* entry i's key, unpacked into `out`; its length */
static int table_key(const Table *t, size_t i, uint8_t *out)
{
    const Entry *e = &t->e[i];
    const uint8_t *s = t->arena + e->off;
    int len = (int)(e->len & ~PACKED), n = len - 4, j, bits = 0;
    uint32_t acc = 0;
    if (!(e->len & PACKED)) {
        memcpy(out, s, (size_t)len);
        return len;
    }
    for (j = 0; j + 4 <= n; j += 4) {
        acc = (uint32_t)s[0] << 16 | (uint32_t)s[1] << 8 | s[2];
        out[j] = BYTE[acc >> 18];
        out[j + 1] = BYTE[acc >> 12 & 63];
        out[j + 2] = BYTE[acc >> 6 & 63];
        out[j + 3] = BYTE[acc & 63];
        s += 3;
    }
    acc = 0;
    for (; j < n; j++) {
        if (bits < 6) {
            acc = acc << 8 | *s++;
            bits += 8;
        }
        bits -= 6;
        out[j] = BYTE[acc >> bits & 63];
    }
    s = t->arena + e->off + stored_len(e->len) - 2;
    out[n] = s[0] >> 4;
    out[n + 1] = s[0] & 15;
    out[n + 2] = s[1] >> 4;
    out[n + 3] = s[1] & 15;
    return len;
}

static void table_free(Table *t)
{
    PyMem_RawFree(t->arena);
    PyMem_RawFree(t->e);
    PyMem_RawFree(t->idx);
    memset(t, 0, sizeof *t);
}

static int64_t table_find(const Table *t, const uint8_t *key, int len, uint64_t h)
{
    size_t mask, i;
    uint8_t buf[KEYMAX];
    const uint8_t *stored = NULL;
    unsigned flen = 0;
    int slen = 0;
    if (!t->icap)
        return -1;
    mask = t->icap - 1;
    for (i = (size_t)h & mask;; i = (i + 1) & mask) {
        uint32_t v = t->idx[i];
        const Entry *e;
        if (!v)
            return -1;
        e = &t->e[v - 1];
        if (e->hash != (uint32_t)(h >> 32) || (e->len & ~PACKED) != (unsigned)len)
            continue;
        if (!stored) {
            /* packed once, at the first entry whose hash and length match */
            if (len <= KEYMAX) {
                flen = pack_key(key, len, buf, &slen);
                stored = buf;
            } else {
                flen = (unsigned)len;
                slen = len;
                stored = key;
            }
        }
        if (e->len == flen && !memcmp(t->arena + e->off, stored, (size_t)slen))
            return (int64_t)v - 1;
    }
}

static int table_grow_index(Table *t)
{
    size_t cap = t->icap ? t->icap * 2 : 1024, i, mask = cap - 1;
    uint32_t *idx = PyMem_RawCalloc(cap, sizeof *idx);
    uint8_t key[KEYMAX];
    if (!idx)
        return -1;
    for (i = 0; i < t->n; i++) {
        uint64_t h;
        if (t->e[i].len & PACKED)
            h = hash_key(key, (size_t)table_key(t, i, key));
        else
            h = hash_key(t->arena + t->e[i].off, t->e[i].len);
        size_t j = (size_t)h & mask;
        while (idx[j])
            j = (j + 1) & mask;
        idx[j] = (uint32_t)(i + 1);
    }
    PyMem_RawFree(t->idx);
    t->idx = idx;
    t->icap = cap;
    return 0;
}

/* add a key known to be absent; its entry's index, or -1 (memory error set) */
static int64_t table_add(Table *t, const uint8_t *key, int len, uint64_t h, int64_t parent, int a, int b)
{
    size_t mask, i;
    Entry *e;
    uint8_t buf[KEYMAX];
    const uint8_t *stored = buf;
    unsigned flen;
    int slen;
    if (len <= KEYMAX) {
        flen = pack_key(key, len, buf, &slen);
    } else {
        flen = (unsigned)len;
        slen = len;
        stored = key;
    }
    if (t->n >= 0xfffffff0U || t->alen + (size_t)slen > 0xffffffffU) {
        PyErr_SetString(PyExc_MemoryError, "solitaire_nb_core: table full");
        return -1;
    }
    if ((t->n + 1) * 2 > t->icap && table_grow_index(t) < 0)
        goto nomem;
    if (t->n == t->ecap) {
        size_t cap = t->ecap ? t->ecap * 2 : 1024;
        Entry *ne = PyMem_RawRealloc(t->e, cap * sizeof *ne);
        if (!ne)
            goto nomem;
        t->e = ne;
        t->ecap = cap;
    }
    if (t->alen + (size_t)slen > t->acap) {
        size_t cap = t->acap ? t->acap * 2 : 65536;
        uint8_t *na;
        while (cap < t->alen + (size_t)slen)
            cap *= 2;
        na = PyMem_RawRealloc(t->arena, cap);
        if (!na)
            goto nomem;
        t->arena = na;
        t->acap = cap;
    }
    e = &t->e[t->n];
    e->off = (uint32_t)t->alen;
    e->len = (uint16_t)flen;
    e->hash = (uint32_t)(h >> 32);
    e->parent = parent < 0 ? NO_PARENT : (uint32_t)parent;
    e->a = (uint8_t)a;
    e->b = (uint8_t)b;
    memcpy(t->arena + t->alen, stored, (size_t)slen);
    t->alen += (size_t)slen;
    mask = t->icap - 1;
    for (i = (size_t)h & mask; t->idx[i]; i = (i + 1) & mask)
        ;
    t->idx[i] = (uint32_t)(t->n + 1);
    return (int64_t)t->n++;
nomem:
    PyErr_NoMemory();
    return -1;
}

/* ------------------------------------------------------------------ the ledger */
typedef struct {
    PyObject_HEAD
    Table seen;
    long long work, work_cap;
} LedgerObject;

static PyTypeObject LedgerType;

/* `_Ledger.count`: 1 if no search had examined the key, else 0; -1 on a memory error */
static int ledger_count(LedgerObject *L, const uint8_t *key, int len)
{
    uint64_t h = hash_key(key, (size_t)len);
    L->work++;
    if (table_find(&L->seen, key, len, h) >= 0)
        return 0;
    if (table_add(&L->seen, key, len, h, -1, 0, 0) < 0)
        return -1;
    return 1;
}

static int ledger_has(LedgerObject *L, const uint8_t *key, int len)
{
    return table_find(&L->seen, key, len, hash_key(key, (size_t)len)) >= 0;
}

static int key_arg(PyObject *arg, const uint8_t **key, Py_ssize_t *len)
{
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "a key must be bytes");
        return -1;
    }
    *key = (const uint8_t *)PyBytes_AS_STRING(arg);
    *len = PyBytes_GET_SIZE(arg);
    if (*len >= (Py_ssize_t)PACKED) {
        PyErr_SetString(PyExc_ValueError, "key too long");
        return -1;
    }
    return 0;
}

static int Ledger_init(LedgerObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"work_cap", NULL};
    long long cap = (long long)1 << 62;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|L", kwlist, &cap))
        return -1;
    table_free(&self->seen);
    self->work = 0;
    self->work_cap = cap;
    return 0;
}

static void Ledger_dealloc(LedgerObject *self)
{
    table_free(&self->seen);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Ledger_count(LedgerObject *self, PyObject *arg)
{
    const uint8_t *key;
    Py_ssize_t len;
    int r;
    if (key_arg(arg, &key, &len) < 0)
        return NULL;
    r = ledger_count(self, key, (int)len);
    if (r < 0)
        return NULL;
    return PyLong_FromLong(r);
}

static PyObject *Ledger_over(LedgerObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(self->work >= self->work_cap);
}

static PyObject *Ledger_stuck(LedgerObject *self, PyObject *args)
{
    /* `_Ledger.stuck` for a Python search given this ledger: rule 8 on `st`, not cached */
    PyObject *key, *st;
    if (!PyArg_ParseTuple(args, "OO", &key, &st))
        return NULL;
    return PyObject_CallMethod(st, "stuck", NULL);
}

static int Ledger_contains(LedgerObject *self, PyObject *arg)
{
    const uint8_t *key;
    Py_ssize_t len;
    if (key_arg(arg, &key, &len) < 0)
        return -1;
    return ledger_has(self, key, (int)len);
}

static Py_ssize_t Ledger_len(LedgerObject *self)
{
    return (Py_ssize_t)self->seen.n;
}

static PyObject *Ledger_get_seen(LedgerObject *self, void *Py_UNUSED(c))
{
    Py_INCREF(self);
    return (PyObject *)self;
}

static PyObject *Ledger_get_work(LedgerObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLongLong(self->work);
}

static PyObject *Ledger_get_work_cap(LedgerObject *self, void *Py_UNUSED(c))
{
    return PyLong_FromLongLong(self->work_cap);
}

static PyMethodDef Ledger_methods[] = {
    {"count", (PyCFunction)Ledger_count, METH_O, "Record one examination of a key: 1 if new, else 0."},
    {"over", (PyCFunction)Ledger_over, METH_NOARGS, "True once work reaches work_cap."},
    {"stuck", (PyCFunction)Ledger_stuck, METH_VARARGS, "Rule 8 on a Python fast state (st.stuck())."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Ledger_getset[] = {
    {"seen", (getter)Ledger_get_seen, NULL, "The examined keys (the ledger itself: `key in ledger.seen`).", NULL},
    {"work", (getter)Ledger_get_work, NULL, "Examinations so far, repeats included.", NULL},
    {"work_cap", (getter)Ledger_get_work_cap, NULL, "The cap on work.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PySequenceMethods Ledger_as_sequence = {
    .sq_length = (lenfunc)Ledger_len,
    .sq_contains = (objobjproc)Ledger_contains,
};

static PyTypeObject LedgerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "solitaire_nb_core._core.Ledger",
    .tp_doc = "The states a portfolio's searches have examined (search._Ledger), shared by them all.",
    .tp_basicsize = sizeof(LedgerObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Ledger_init,
    .tp_dealloc = (destructor)Ledger_dealloc,
    .tp_methods = Ledger_methods,
    .tp_getset = Ledger_getset,
    .tp_as_sequence = &Ledger_as_sequence,
};

/* ------------------------------------------------------------------ growable stacks */
typedef struct {
    uint8_t *d;
    size_t n, cap;
} Bytes;

static int bytes_reserve(Bytes *b, size_t more)
{
    if (b->n + more > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        uint8_t *nd;
        while (cap < b->n + more)
            cap *= 2;
        nd = PyMem_RawRealloc(b->d, cap);
        if (!nd) {
            PyErr_NoMemory();
            return -1;
        }
        b->d = nd;
        b->cap = cap;
    }
    return 0;
}

static void bytes_free(Bytes *b)
{
    PyMem_RawFree(b->d);
    memset(b, 0, sizeof *b);
}

/* one move entered: the move, its description and how many cards its autoplay sent home
 * (their (pile, card) pairs are in the walk's autoplay stack) */
typedef struct {
    uint8_t a, b, nauto;
    int8_t card, dest;
} Entered;

/* a probe's jump: `len` single moves from byte `start` of the walk's move stack */
typedef struct {
    size_t start;
    int len;
} Jump;

/* one state on a walk's path: its moves (or the probe's jumps), the next one to try, and
 * where the records of the moves that entered it start */
typedef struct {
    size_t mv_off, jo_off, ent_off;
    int nmoves, i;
} Level;

/* a depth-first walk: its position, its path, the stacks the path's levels use, and the
 * described moves played before its root (never taken back) */
typedef struct {
    Pos pos;
    Level *path;
    size_t npath, pathcap;
    Bytes mv, jo, ent, aut;
    PyObject *root_line;
    uint64_t rng;
    int started, yielded;
    size_t pend_ent;
} Walk;

typedef struct {
    int64_t score, count;
    uint32_t entry;
} HeapItem;

#define MAXWALKS 16
enum { BEST_FIRST, DEPTH_FIRST, PROBE, STREAMLINERS };

/* ------------------------------------------------------------------ the search object */
typedef struct {
    PyObject_HEAD
    Rules R;
    int kind, order_fc, plain;
    uint8_t fc[52], blind[52];
    int nurg, urg[16], disorder;
    long long max_table, limit;
    int nwalks, quota, ngames, game;
    uint8_t games[8];
    LedgerObject *ledger;
    int has_deadline;
    double deadline;
    Pos start;
    Walk w[MAXWALKS];
    int phase;  /* 0 new, 1 root to test (best-first), 2 running, 3 ended */
    long long states, examined, count;
    Table tab;
    HeapItem *heap;
    size_t nheap, heapcap;
    int pending, pending_new, pending_len;
    uint8_t pending_key[KEYMAX];
    int snap[MAXWALKS], nsnap, pk, pq, alive[MAXWALKS], nalive;
} SearchObject;

static PyObject *time_module;

static int past_deadline(SearchObject *s)
{
    PyObject *f, *r;
    double now;
    f = PyObject_GetAttrString(time_module, "perf_counter");
    if (!f)
        return -1;
    r = PyObject_CallNoArgs(f);
    Py_DECREF(f);
    if (!r)
        return -1;
    now = PyFloat_AsDouble(r);
    Py_DECREF(r);
    if (now == -1.0 && PyErr_Occurred())
        return -1;
    return now > s->deadline;
}

static int check_clock(SearchObject *s)
{
    /* every 256 examined states: the deadline (1: past it) and pending signals (-1) */
    if (s->examined & 255)
        return 0;
    if (PyErr_CheckSignals() < 0)
        return -1;
    if (s->has_deadline)
        return past_deadline(s);
    return 0;
}

/* `heuristics._score` */
static int64_t score(const SearchObject *s, const Pos *p)
{
    int T = s->R.T, u, i, k, urgent[52];
    int64_t sc = 8 * (52 - (p->h[0] + p->h[1] + p->h[2] + p->h[3])), dis = 0;
    memset(urgent, 0, sizeof urgent);
    for (u = 0; u < 4; u++)
        for (k = 0; k < s->nurg; k++) {
            int r = p->h[u] + k;
            if (r < 13)
                urgent[u * 13 + r] = s->urg[k];
        }
    for (i = 0; i < T; i++) {
        int above = p->n[i];
        for (k = 0; k < p->n[i]; k++) {
            above--;
            sc += (int64_t)urgent[p->c[i][k]] * above;
        }
        if (s->disorder) {
            int low = 99;
            for (k = 0; k < p->n[i]; k++) {
                int r = p->c[i][k] % 13;
                if (r > low)
                    dis++;
                else if (r < low)
                    low = r;
            }
        }
    }
    return sc + s->disorder * dis;
}

static int heap_push(SearchObject *s, int64_t sc, int64_t count, uint32_t entry)
{
    size_t i;
    if (s->nheap == s->heapcap) {
        size_t cap = s->heapcap ? s->heapcap * 2 : 1024;
        HeapItem *nh = PyMem_RawRealloc(s->heap, cap * sizeof *nh);
        if (!nh) {
            PyErr_NoMemory();
            return -1;
        }
        s->heap = nh;
        s->heapcap = cap;
    }
    i = s->nheap++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        HeapItem *q = &s->heap[up];
        if (q->score < sc || (q->score == sc && q->count < count))
            break;
        s->heap[i] = *q;
        i = up;
    }
    s->heap[i].score = sc;
    s->heap[i].count = count;
    s->heap[i].entry = entry;
    return 0;
}

static HeapItem heap_pop(SearchObject *s)
{
    HeapItem top = s->heap[0], last = s->heap[--s->nheap];
    size_t i = 0, n = s->nheap;
    for (;;) {
        size_t l = 2 * i + 1, m;
        HeapItem *c;
        if (l >= n)
            break;
        m = l;
        if (l + 1 < n) {
            HeapItem *x = &s->heap[l], *y = &s->heap[l + 1];
            if (y->score < x->score || (y->score == x->score && y->count < x->count))
                m = l + 1;
        }
        c = &s->heap[m];
        if (last.score < c->score || (last.score == c->score && last.count < c->count))
            break;
        s->heap[i] = *c;
        i = m;
    }
    if (n)
        s->heap[i] = last;
    return top;
}

static int append_pair(PyObject *line, int card, int dest)
{
    PyObject *t = Py_BuildValue("(ii)", card, dest);
    int r;
    if (!t)
        return -1;
    r = PyList_Append(line, t);
    Py_DECREF(t);
    return r;
}

static int won(const Pos *p)
{
    return p->h[0] + p->h[1] + p->h[2] + p->h[3] == 52;
}

/* play a→b on `p`, describing it into `line` (the moves before a root, never taken back) */
static int play_into(const Rules *R, Pos *p, int a, int b, PyObject *line)
{
    int card, dest;
    uint8_t aut[104];
    describe(R, p, a, b, &card, &dest);
    play(R, p, a, b, aut);
    return append_pair(line, card, dest);
}

/* `_play_safe_moves` (rules 3 and 3c) into `line` */
static int safe_into(const Rules *R, Pos *p, PyObject *line)
{
    int i;
    while ((i = safe_move(R, p)) >= 0)
        if (play_into(R, p, i, R->T + TOP(p, i) / 13, line) < 0)
            return -1;
    return 0;
}

/* `streamline._send_home` into `line` */
static int home_into(const Rules *R, Pos *p, PyObject *line)
{
    int moved = 1, i;
    while (moved) {
        moved = 0;
        for (i = 0; i < R->T; i++)
            if (p->n[i] && p->h[TOP(p, i) / 13] == TOP(p, i) % 13) {
                if (play_into(R, p, i, R->T + TOP(p, i) / 13, line) < 0)
                    return -1;
                moved = 1;
            }
    }
    return 0;
}

/* ------------------------------------------------------------------ walks */
/* play a→b on the walk, recording it (and its autoplay) for `w_leave` and the line */
static int w_play(const Rules *R, Walk *w, int a, int b)
{
    Entered *rec;
    int card, dest, na;
    if (bytes_reserve(&w->ent, sizeof(Entered)) < 0 || bytes_reserve(&w->aut, 104) < 0)
        return -1;
    rec = (Entered *)(w->ent.d + w->ent.n);
    describe(R, &w->pos, a, b, &card, &dest);
    na = play(R, &w->pos, a, b, w->aut.d + w->aut.n);
    rec->a = (uint8_t)a;
    rec->b = (uint8_t)b;
    rec->card = (int8_t)card;
    rec->dest = (int8_t)dest;
    rec->nauto = (uint8_t)na;
    w->ent.n += sizeof(Entered);
    w->aut.n += 2 * (size_t)na;
    return 0;
}

/* `search._leave`: take back every move recorded from `ent_off` on */
static void w_leave(const Rules *R, Walk *w, size_t ent_off)
{
    while (w->ent.n > ent_off) {
        const Entered *rec = (const Entered *)(w->ent.d + w->ent.n) - 1;
        w->aut.n -= 2 * (size_t)rec->nauto;
        undo_move(R, &w->pos, rec->a, rec->b, w->aut.d + w->aut.n, rec->nauto);
        w->ent.n -= sizeof(Entered);
    }
}

static int w_safe(const Rules *R, Walk *w)
{
    int i;
    while ((i = safe_move(R, &w->pos)) >= 0)
        if (w_play(R, w, i, R->T + TOP(&w->pos, i) / 13) < 0)
            return -1;
    return 0;
}

static int w_home(const Rules *R, Walk *w)
{
    int moved = 1, i;
    while (moved) {
        moved = 0;
        for (i = 0; i < R->T; i++)
            if (w->pos.n[i] && w->pos.h[TOP(&w->pos, i) / 13] == TOP(&w->pos, i) % 13) {
                if (w_play(R, w, i, R->T + TOP(&w->pos, i) / 13) < 0)
                    return -1;
                moved = 1;
            }
    }
    return 0;
}

/* the described line: the moves before the root, then every move recorded on the path */
static PyObject *w_line(Walk *w)
{
    PyObject *line = PySequence_List(w->root_line);
    size_t k, n = w->ent.n / sizeof(Entered);
    const Entered *rec = (const Entered *)w->ent.d;
    if (!line)
        return NULL;
    for (k = 0; k < n; k++)
        if (append_pair(line, rec[k].card, rec[k].dest) < 0) {
            Py_DECREF(line);
            return NULL;
        }
    return line;
}

static Level *w_new_level(Walk *w)
{
    Level *lv;
    if (w->npath == w->pathcap) {
        size_t cap = w->pathcap ? w->pathcap * 2 : 256;
        Level *np = PyMem_RawRealloc(w->path, cap * sizeof *np);
        if (!np) {
            PyErr_NoMemory();
            return NULL;
        }
        w->path = np;
        w->pathcap = cap;
    }
    lv = &w->path[w->npath++];
    lv->mv_off = w->mv.n;
    lv->jo_off = w->jo.n;
    lv->i = 0;
    lv->nmoves = 0;
    return lv;
}

/* drop the path's last level, taking back the moves that entered it */
static void w_pop(const Rules *R, Walk *w)
{
    const Level *lv = &w->path[--w->npath];
    w->mv.n = lv->mv_off;
    w->jo.n = lv->jo_off;
    w_leave(R, w, lv->ent_off);
}

static void w_free(Walk *w)
{
    PyMem_RawFree(w->path);
    bytes_free(&w->mv);
    bytes_free(&w->jo);
    bytes_free(&w->ent);
    bytes_free(&w->aut);
    Py_CLEAR(w->root_line);
    memset(w, 0, sizeof *w);
}

/* a fresh walk from `start`, its piles sorted with `sorted` (`probe._sorted_fast`) */
static int w_reset(Walk *w, int T, const Pos *start, int sorted)
{
    w_free(w);
    w->pos = *start;
    if (sorted) {
        int i;
        for (i = 1; i < T; i++) {
            uint8_t n = w->pos.n[i], c[52];
            int j = i;
            memcpy(c, w->pos.c[i], n);
            while (j > 0 && pile_cmp(w->pos.c[j - 1], w->pos.n[j - 1], c, n) > 0) {
                memcpy(w->pos.c[j], w->pos.c[j - 1], w->pos.n[j - 1]);
                w->pos.n[j] = w->pos.n[j - 1];
                j--;
            }
            memcpy(w->pos.c[j], c, n);
            w->pos.n[j] = n;
        }
    }
    w->root_line = PyList_New(0);
    return w->root_line ? 0 : -1;
}

/* ------------------------------------------------------------------ end of a search */
static PyObject *finish(SearchObject *s, const char *status, PyObject *line, long long states)
{
    s->phase = 3;
    if (!line) {
        line = PyList_New(0);
        if (!line)
            return NULL;
    } else {
        Py_INCREF(line);
    }
    return Py_BuildValue("(L(sNL))", states, status, line, states);
}

static PyObject *finish_won(SearchObject *s, PyObject *line, long long states)
{
    PyObject *r;
    if (!line)
        return NULL;
    r = finish(s, "won", line, states);
    Py_DECREF(line);
    return r;
}

static PyObject *paused(long long states)
{
    return Py_BuildValue("(LO)", states, Py_None);
}

/* ------------------------------------------------------------------ best-first */
/* `search._fast_line`: the described line from the root to entry `k`: each step replays
 * its move on its parent position (restored from its key) and, with rule 3, `_enter_fast` */
static PyObject *best_first_line(SearchObject *s, int64_t k)
{
    const Rules *R = &s->R;
    int T = R->T;
    Pos *p = &s->w[0].pos;
    int64_t *steps = NULL, e;
    size_t n = 0, cap = 0, j;
    PyObject *line = PySequence_List(s->w[0].root_line);
    if (!line)
        return NULL;
    for (e = k; ENTRY_PARENT(&s->tab.e[e]) >= 0; e = ENTRY_PARENT(&s->tab.e[e])) {
        if (n == cap) {
            int64_t *ns;
            cap = cap ? cap * 2 : 256;
            ns = PyMem_RawRealloc(steps, cap * sizeof *ns);
            if (!ns) {
                PyMem_RawFree(steps);
                Py_DECREF(line);
                return PyErr_NoMemory();
            }
            steps = ns;
        }
        steps[n++] = e;
    }
    for (j = n; j-- > 0;) {
        const Entry *x = &s->tab.e[steps[j]];
        int a = x->a, b = x->b;
        uint8_t pkey[KEYMAX];
        restore(T, p, pkey, table_key(&s->tab, x->parent, pkey));
        if (play_into(R, p, a, b, line) < 0)
            goto fail;
        if (R->rule3) {
            /* `_enter_fast`: after a move between piles, only the source's new top may be safe */
            int go = 1;
            if (a < T && b < T) {
                int c = p->n[a] ? TOP(p, a) : -1;
                if (c < 0 || p->h[c / 13] != c % 13 || !harmless_children(R, p, c))
                    go = 0;
                else if (play_into(R, p, a, T + c / 13, line) < 0)
                    goto fail;
            }
            if (go && safe_into(R, p, line) < 0)
                goto fail;
        }
    }
    PyMem_RawFree(steps);
    return line;
fail:
    PyMem_RawFree(steps);
    Py_DECREF(line);
    return NULL;
}

/* after a move a→b (no autoplay, no take-backs), rule 3's scan is skipped when neither the
 * move went home nor the source's new top can go home (`_enter_fast`) */
static int may_be_safe(const Rules *R, const Pos *p, int a, int b)
{
    if (!R->rule3)
        return 0;
    if (b >= R->T)
        return 1;
    return p->n[a] && p->h[TOP(p, a) / 13] == TOP(p, a) % 13;
}

/* `search._fast_search`, resumable: runs until `allowed` states or a verdict */
static PyObject *run_best_first(SearchObject *s, long long allowed)
{
    const Rules *R = &s->R;
    int T = R->T;
    Walk *w = &s->w[0];
    Pos *p = &w->pos;
    uint8_t key[KEYMAX], ckey[KEYMAX], moves[2 * MAXMOVES];
    if (s->phase == 0) {
        if (w_reset(w, T, &s->start, 0) < 0)
            return NULL;
        if (R->rule3 && safe_into(R, p, w->root_line) < 0)
            return NULL;
        if (won(p))
            return finish(s, "won", w->root_line, 0);
        s->phase = 1;
    }
    if (s->phase == 1) {
        int len;
        int64_t root;
        if (allowed < 1)
            return paused(0);
        if (dead(R, p, -1, -1) || (R->hole_dead_ends && stuck(R, p)))
            return finish(s, "lost", NULL, 1);
        len = make_key(T, p, key);
        root = table_add(&s->tab, key, len, hash_key(key, (size_t)len), -1, 0, 0);
        if (root < 0 || heap_push(s, score(s, p), 0, (uint32_t)root) < 0)
            return NULL;
        s->phase = 2;
    }
    while (s->nheap) {
        HeapItem it;
        int len, nm, m, r;
        if (s->states >= allowed)
            return paused(s->states);
        if ((long long)s->tab.n >= s->max_table)
            return finish(s, "unknown", NULL, s->states);
        it = heap_pop(s);
        len = table_key(&s->tab, (size_t)it.entry, key);
        restore(T, p, key, len);
        if (R->hole_dead_ends && stuck(R, p))
            continue;
        s->examined++;
        if (!s->ledger) {
            s->states++;
        } else {
            if (s->ledger->work >= s->ledger->work_cap)
                return finish(s, "unknown", NULL, s->states);
            r = ledger_count(s->ledger, key, len);
            if (r < 0)
                return NULL;
            s->states += r;
        }
        r = check_clock(s);
        if (r < 0)
            return NULL;
        if (r)
            return finish(s, "unknown", NULL, s->states);
        if (R->dead_ends && stuck(R, p))
            continue;
        nm = gen_moves(R, p, moves);
        for (m = 0; m < nm; m++) {
            int a = moves[2 * m], b = moves[2 * m + 1], clen, between = a < T && b < T, na, ne = 1, k;
            uint8_t ea[53], eb[53], aut[104];
            uint64_t h;
            /* the moves into the child: this one, then rule 3's safe moves */
            na = play(R, p, a, b, aut);
            ea[0] = (uint8_t)a;
            eb[0] = (uint8_t)b;
            if (s->plain) {
                if (may_be_safe(R, p, a, b) && safe_move(R, p) >= 0) {
                    int i;
                    while ((i = safe_move(R, p)) >= 0) {
                        int c = TOP(p, i);
                        ea[ne] = (uint8_t)i;
                        eb[ne] = (uint8_t)(T + c / 13);
                        raw(p, T, i, T + c / 13);
                        ne++;
                    }
                    between = 0;
                }
            } else if (na) {
                between = 0;
            }
            clen = make_key(T, p, ckey);
            h = hash_key(ckey, (size_t)clen);
            if (table_find(&s->tab, ckey, clen, h) < 0) {
                int64_t child = table_add(&s->tab, ckey, clen, h, it.entry, a, b);
                if (child < 0)
                    return NULL;
                if (won(p))
                    return finish_won(s, best_first_line(s, child), s->states);
                if (!(R->dead_ends && (between ? dead(R, p, a, b) : dead(R, p, -1, -1)))) {
                    s->count++;
                    if (heap_push(s, score(s, p), s->count, (uint32_t)child) < 0)
                        return NULL;
                }
            }
            for (k = ne - 1; k >= 0; k--)
                undo_move(R, p, ea[k], eb[k], aut, k ? 0 : na);
        }
    }
    return finish(s, "lost", NULL, s->states);
}

/* ------------------------------------------------------------------ depth-first */
/* `heuristics._dfs_moves`: moves home, into a hole, onto a card, take-backs; each kind by
 * source then destination pile, piles ranked by their cards from the bottom (card ids, or
 * Freecell Solver's numbering with `order_fc`) */
static int dfs_moves(const SearchObject *s, const Pos *p, uint8_t *out)
{
    int T = s->R.T, n, i, k, rank[MAXT + 4], idx[MAXT];
    uint8_t mv[2 * MAXMOVES], tr[MAXT][52];
    uint64_t codes[MAXMOVES];
    n = gen_moves(&s->R, p, mv);
    for (i = 0; i < T; i++) {
        const uint8_t *q = p->c[i];
        int j;
        if (s->order_fc) {
            for (k = 0; k < p->n[i]; k++)
                tr[i][k] = s->fc[p->c[i][k]];
            q = tr[i];
        }
        /* stable insertion: a pile goes after every pile not greater than it */
        j = i;
        while (j > 0) {
            int o = idx[j - 1];
            const uint8_t *qo = s->order_fc ? tr[o] : p->c[o];
            if (pile_cmp(qo, p->n[o], q, p->n[i]) <= 0)
                break;
            idx[j] = o;
            j--;
        }
        idx[j] = i;
    }
    for (k = 0; k < T; k++)
        rank[idx[k]] = k;
    for (k = 0; k < 4; k++)
        rank[T + k] = T + k;
    for (k = 0; k < n; k++) {
        uint64_t a = mv[2 * k], b = mv[2 * k + 1], kind;
        kind = a >= (uint64_t)T ? 3 : b >= (uint64_t)T ? 0 : !p->n[b] ? 1 : 2;
        codes[k] = ((((kind << 6 | (uint64_t)rank[a]) << 6) | (uint64_t)rank[b]) << 12) | a << 6 | b;
    }
    for (i = 1; i < n; i++) {
        uint64_t x = codes[i];
        int j = i;
        while (j > 0 && codes[j - 1] > x) {
            codes[j] = codes[j - 1];
            j--;
        }
        codes[j] = x;
    }
    for (k = 0; k < n; k++) {
        out[2 * k] = (uint8_t)(codes[k] >> 6 & 63);
        out[2 * k + 1] = (uint8_t)(codes[k] & 63);
    }
    return n;
}

/* push a level for the walk's position with `dfs_moves`' moves, entered from `ent_off` */
static int w_push_dfs(const SearchObject *s, Walk *w, size_t ent_off)
{
    uint8_t moves[2 * MAXMOVES];
    int n = dfs_moves(s, &w->pos, moves);
    Level *lv;
    if (bytes_reserve(&w->mv, 2 * (size_t)n) < 0 || !(lv = w_new_level(w)))
        return -1;
    memcpy(w->mv.d + w->mv.n, moves, 2 * (size_t)n);
    w->mv.n += 2 * (size_t)n;
    lv->nmoves = n;
    lv->ent_off = ent_off;
    return 0;
}

/* `search._fast_dfs`, resumable: runs until `allowed` states or a verdict */
static PyObject *run_dfs(SearchObject *s, long long allowed)
{
    const Rules *R = &s->R;
    int T = R->T, r;
    Walk *w = &s->w[0];
    if (s->phase == 0) {
        uint8_t key[KEYMAX];
        int len;
        if (w_reset(w, T, &s->start, 0) < 0)
            return NULL;
        if (R->rule3 && safe_into(R, &w->pos, w->root_line) < 0)
            return NULL;
        if (won(&w->pos))
            return finish(s, "won", w->root_line, 0);
        len = make_key(T, &w->pos, key);
        if (table_add(&s->tab, key, len, hash_key(key, (size_t)len), -1, 0, 0) < 0)
            return NULL;
        if (!s->ledger) {
            s->states = 1;
        } else {
            r = ledger_count(s->ledger, key, len);
            if (r < 0)
                return NULL;
            s->states = r;
        }
        s->examined = 1;
        if (w_push_dfs(s, w, 0) < 0)
            return NULL;
        s->phase = 2;
    }
    if (s->pending)
        goto resume;
    while (w->npath) {
        Level *lv = &w->path[w->npath - 1];
        size_t ent_off;
        int a, b, len;
        uint64_t h;
        if (lv->i == lv->nmoves) {
            w_pop(R, w);
            continue;
        }
        a = w->mv.d[lv->mv_off + 2 * (size_t)lv->i];
        b = w->mv.d[lv->mv_off + 2 * (size_t)lv->i + 1];
        lv->i++;
        ent_off = w->ent.n;
        if (w_play(R, w, a, b) < 0)
            return NULL;
        if (s->plain && may_be_safe(R, &w->pos, a, b) && w_safe(R, w) < 0)
            return NULL;
        len = make_key(T, &w->pos, s->pending_key);
        h = hash_key(s->pending_key, (size_t)len);
        if (table_find(&s->tab, s->pending_key, len, h) >= 0) {
            w_leave(R, w, ent_off);
            continue;
        }
        if (won(&w->pos))
            return finish_won(s, w_line(w), s->states);
        if (R->hole_dead_ends && stuck(R, &w->pos)) {
            if (table_add(&s->tab, s->pending_key, len, h, -1, 0, 0) < 0)
                return NULL;
            w_leave(R, w, ent_off);
            continue;
        }
        s->pending_new = !s->ledger || !ledger_has(s->ledger, s->pending_key, len);
        s->pending_len = len;
        w->pend_ent = ent_off;
        s->pending = 1;
    resume:
        if (s->pending_new && s->states >= allowed)
            return paused(s->states);
        s->pending = 0;
        if ((long long)s->tab.n >= s->max_table || (s->ledger && s->ledger->work >= s->ledger->work_cap))
            return finish(s, "unknown", NULL, s->states);
        s->examined++;
        r = check_clock(s);
        if (r < 0)
            return NULL;
        if (r)
            return finish(s, "unknown", NULL, s->states);
        len = s->pending_len;
        if (table_add(&s->tab, s->pending_key, len, hash_key(s->pending_key, (size_t)len), -1, 0, 0) < 0)
            return NULL;
        if (s->ledger && ledger_count(s->ledger, s->pending_key, len) < 0)
            return NULL;
        s->states += s->pending_new;
        if (w_push_dfs(s, w, w->pend_ent) < 0)
            return NULL;
    }
    return finish(s, "lost", NULL, s->states);
}

/* ------------------------------------------------------------------ the probe */
static uint64_t splitmix64_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int w_add_move(Walk *w, int a, int b)
{
    if (bytes_reserve(&w->mv, 2) < 0)
        return -1;
    w->mv.d[w->mv.n++] = (uint8_t)a;
    w->mv.d[w->mv.n++] = (uint8_t)b;
    return 0;
}

/* `probe._through_holes`: single moves carrying the top `k` cards of `a` onto `b` */
static int through_holes(Walk *w, int k, int a, int b, const int *holes, int nh)
{
    int half;
    if (k == 1)
        return w_add_move(w, a, b);
    half = k / 2;
    if (through_holes(w, half, a, holes[0], holes + 1, nh - 1) < 0 ||
        through_holes(w, k - half, a, b, holes + 1, nh - 1) < 0 ||
        through_holes(w, half, holes[0], b, holes + 1, nh - 1) < 0)
        return -1;
    return 0;
}

/* `probe._dig_out`: single moves clearing the `depth` cards above a buried card of `a`
 * (appended to the move stack); 1 when done, 0 when some card finds no place */
static int dig_out(const Rules *R, Walk *w, int a, int depth)
{
    Pos *p = &w->pos;
    int T = R->T, k, played = 0, pa[52], pb[52];
    for (k = 0; k < depth; k++) {
        int y = TOP(p, a), dest = -1, hole = -1, j;
        for (j = 0; j < T; j++)
            if (j != a) {
                if (p->n[j]) {
                    if (R->parent_bits[y] >> TOP(p, j) & 1) {
                        dest = j;
                        break;
                    }
                } else if (hole < 0) {
                    hole = j;
                }
            }
        if (dest < 0 && R->empty_any)
            dest = hole;
        if (dest < 0)
            break;
        raw(p, T, a, dest);
        pa[played] = a;
        pb[played] = dest;
        played++;
    }
    for (k = played - 1; k >= 0; k--)
        raw(p, T, pb[k], pa[k]);
    if (played != depth)
        return 0;
    for (k = 0; k < played; k++)
        if (w_add_move(w, pa[k], pb[k]) < 0)
            return -1;
    return 1;
}

static void permute(Jump *items, int n, uint64_t *rng)
{
    int i;
    for (i = n - 1; i > 0; i--) {
        int j = (int)(splitmix64_next(rng) % (uint64_t)(i + 1));
        Jump t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* `probe._jumps` in `_probe_thread`'s order (each group shuffled), as a new level */
static int w_push_jumps(const Rules *R, Walk *w, size_t ent_off)
{
    const Pos *p = &w->pos;
    int T = R->T, holes[MAXT], nh = 0, room, i, j, nhome = 0, nother = 0, depth;
    Jump *home, *other;
    Level *lv;
    size_t mark = w->mv.n;
    if (!(lv = w_new_level(w)))
        return -1;
    lv->ent_off = ent_off;
    if (R->empty_any)
        for (j = 0; j < T; j++)
            if (!p->n[j])
                holes[nh++] = j;
    room = nh >= 7 ? 128 : 1 << nh;  /* a run never has more than 52 cards */
    home = PyMem_RawMalloc(sizeof(Jump) * (52 + (size_t)T * (T + 1) + 1));
    if (!home) {
        PyErr_NoMemory();
        return -1;
    }
    other = home + 52;
    for (i = 0; i < T; i++)
        for (depth = 0; depth < p->n[i]; depth++) {
            int c = p->c[i][p->n[i] - 1 - depth], r;
            size_t start = w->mv.n;
            if (p->h[c / 13] != c % 13)
                continue;
            r = depth ? dig_out(R, w, i, depth) : 1;
            if (r < 0 || (r && w_add_move(w, i, T + c / 13) < 0))
                goto fail;
            if (r) {
                home[nhome].start = start;
                home[nhome].len = (int)((w->mv.n - start) / 2);
                nhome++;
            }
        }
    for (i = 0; i < T; i++) {
        const uint8_t *q = p->c[i];
        int len = p->n[i], n = 1;
        if (!len)
            continue;
        while (n < len && (R->parent_bits[q[len - n]] >> q[len - n - 1] & 1))
            n++;
        if (n <= room) {
            int head = q[len - n];
            for (j = 0; j < T; j++)
                if (j != i && p->n[j] && (R->parent_bits[head] >> TOP(p, j) & 1)) {
                    size_t start = w->mv.n;
                    if (through_holes(w, n, i, j, holes, nh) < 0)
                        goto fail;
                    other[nother].start = start;
                    other[nother].len = (int)((w->mv.n - start) / 2);
                    nother++;
                }
        }
        if (nh && n < len && n <= room >> 1) {
            size_t start = w->mv.n;
            if (through_holes(w, n, i, holes[0], holes + 1, nh - 1) < 0)
                goto fail;
            other[nother].start = start;
            other[nother].len = (int)((w->mv.n - start) / 2);
            nother++;
        }
    }
    permute(home, nhome, &w->rng);
    permute(other, nother, &w->rng);
    if (bytes_reserve(&w->jo, sizeof(Jump) * (size_t)(nhome + nother)) < 0)
        goto fail;
    memcpy(w->jo.d + w->jo.n, home, sizeof(Jump) * (size_t)nhome);
    memcpy(w->jo.d + w->jo.n + sizeof(Jump) * (size_t)nhome, other, sizeof(Jump) * (size_t)nother);
    w->jo.n += sizeof(Jump) * (size_t)(nhome + nother);
    PyMem_RawFree(home);
    lv = &w->path[w->npath - 1];
    lv->mv_off = mark;
    lv->nmoves = nhome + nother;
    return 0;
fail:
    PyMem_RawFree(home);
    return -1;
}

/* one step of `probe._probe_thread`: 1 when it enters a state (its key in `key`), 0 when it
 * has nothing left to try, 2 when it wins (`*line`), -1 on an error */
static int probe_next(SearchObject *s, Walk *w, uint8_t *key, int *klen, PyObject **line)
{
    const Rules *R = &s->R;
    int T = R->T;
    Pos *p = &w->pos;
    if (!w->started) {
        int len;
        uint64_t h;
        w->started = 1;
        if (R->rule3 && safe_into(R, p, w->root_line) < 0)
            return -1;
        if (won(p)) {
            *line = PySequence_List(w->root_line);
            return *line ? 2 : -1;
        }
        len = make_key(T, p, key);
        h = hash_key(key, (size_t)len);
        if (table_find(&s->tab, key, len, h) < 0 && table_add(&s->tab, key, len, h, -1, 0, 0) < 0)
            return -1;
        if (w_push_jumps(R, w, 0) < 0)
            return -1;
    } else if (w->yielded) {
        w->yielded = 0;
        if (w_push_jumps(R, w, w->pend_ent) < 0)
            return -1;
    }
    while (w->npath) {
        Level *lv = &w->path[w->npath - 1];
        const Jump *jump;
        size_t ent_off = w->ent.n;
        int k, len;
        uint64_t h;
        if (lv->i == lv->nmoves) {
            w_pop(R, w);
            continue;
        }
        jump = (const Jump *)(w->jo.d + lv->jo_off) + lv->i++;
        for (k = 0; k < jump->len; k++) {
            int a = w->mv.d[jump->start + 2 * (size_t)k], b = w->mv.d[jump->start + 2 * (size_t)k + 1];
            if (w_play(R, w, a, b) < 0)
                return -1;
        }
        if (R->rule3 && w_safe(R, w) < 0)
            return -1;
        len = make_key(T, p, key);
        h = hash_key(key, (size_t)len);
        if (table_find(&s->tab, key, len, h) >= 0) {
            w_leave(R, w, ent_off);
            continue;
        }
        if (won(p)) {
            *line = w_line(w);
            return *line ? 2 : -1;
        }
        if (table_add(&s->tab, key, len, h, -1, 0, 0) < 0)
            return -1;
        if (R->hole_dead_ends && stuck(R, p)) {
            w_leave(R, w, ent_off);
            continue;
        }
        w->yielded = 1;
        w->pend_ent = ent_off;
        *klen = len;
        return 1;
    }
    return 0;
}

/* `probe._fast_probe`, resumable: walks taking turns of `quota` states, sharing one table */
static PyObject *run_probe(SearchObject *s, long long allowed)
{
    uint8_t key[KEYMAX];
    if (s->phase == 0) {
        int k;
        for (k = 0; k < s->nwalks; k++) {
            if (w_reset(&s->w[k], s->R.T, &s->start, 1) < 0)
                return NULL;
            s->w[k].rng = (uint64_t)k;
            s->alive[k] = k;
        }
        s->nalive = s->nwalks;
        s->nsnap = s->pk = s->pq = 0;
        s->phase = 2;
    }
    for (;;) {
        int r, len = 0;
        PyObject *line = NULL;
        if (s->pk >= s->nsnap) {
            if (!s->nalive)
                return finish(s, "unknown", NULL, s->states);
            memcpy(s->snap, s->alive, sizeof(int) * (size_t)s->nalive);
            s->nsnap = s->nalive;
            s->pk = s->pq = 0;
        }
        if (s->pq >= s->quota) {
            s->pk++;
            s->pq = 0;
            continue;
        }
        if (s->states >= allowed)
            return paused(s->states);
        if (s->examined >= s->limit || (long long)s->tab.n >= s->max_table ||
            (s->ledger && s->ledger->work >= s->ledger->work_cap))
            return finish(s, "unknown", NULL, s->states);
        r = check_clock(s);
        if (r < 0)
            return NULL;
        if (r)
            return finish(s, "unknown", NULL, s->states);
        r = probe_next(s, &s->w[s->snap[s->pk]], key, &len, &line);
        if (r < 0)
            return NULL;
        if (r == 2)
            return finish_won(s, line, s->states);
        if (r == 0) {
            int k, m = 0, gone = s->snap[s->pk];
            for (k = 0; k < s->nalive; k++)
                if (s->alive[k] != gone)
                    s->alive[m++] = s->alive[k];
            s->nalive = m;
            s->pk++;
            s->pq = 0;
            continue;
        }
        s->examined++;
        if (!s->ledger) {
            s->states++;
        } else {
            r = ledger_count(s->ledger, key, len);
            if (r < 0)
                return NULL;
            s->states += r;
        }
        s->pq++;
    }
}

/* ------------------------------------------------------------------ the streamliners */
/* `streamline._blind_key`: each pile's card classes (piles sorted), then the sorted heights */
static int blind_key(const SearchObject *s, const Pos *p, uint8_t *out)
{
    int T = s->R.T, idx[MAXT], i, k, len = 0;
    uint8_t tr[MAXT][52], h[4];
    for (i = 0; i < T; i++) {
        int j = i;
        for (k = 0; k < p->n[i]; k++)
            tr[i][k] = s->blind[p->c[i][k]];
        while (j > 0 && pile_cmp(tr[idx[j - 1]], p->n[idx[j - 1]], tr[i], p->n[i]) > 0) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
    for (k = 0; k < T; k++) {
        int q = idx[k];
        memcpy(out + len, tr[q], p->n[q]);
        len += p->n[q];
        out[len++] = 0xff;
    }
    memcpy(h, p->h, 4);
    for (i = 1; i < 4; i++)
        for (k = i; k > 0 && h[k - 1] > h[k]; k--) {
            uint8_t t = h[k];
            h[k] = h[k - 1];
            h[k - 1] = t;
        }
    memcpy(out + len, h, 4);
    return len + 4;
}

/* one step of `streamline._walk`: 1 when it enters a state (its exact key in `key`), 0 when
 * it has nothing left to try or its table is full, 2 when it wins, -1 on an error */
static int stream_next(SearchObject *s, Walk *w, int home, uint8_t *key, int *klen, PyObject **line)
{
    const Rules *R = &s->R;
    int T = R->T, len;
    Pos *p = &w->pos;
    uint8_t bkey[KEYMAX];
    uint64_t h;
    if (!w->started) {
        w->started = 1;
        if (home && home_into(R, p, w->root_line) < 0)
            return -1;
        if (won(p)) {
            *line = PySequence_List(w->root_line);
            return *line ? 2 : -1;
        }
        len = blind_key(s, p, bkey);
        if (table_add(&s->tab, bkey, len, hash_key(bkey, (size_t)len), -1, 0, 0) < 0)
            return -1;
        w->yielded = 1;
        w->pend_ent = 0;
        *klen = make_key(T, p, key);
        return 1;
    }
    if (w->yielded) {
        w->yielded = 0;
        if (w_push_dfs(s, w, w->pend_ent) < 0)
            return -1;
    }
    while (w->npath) {
        Level *lv = &w->path[w->npath - 1];
        size_t ent_off = w->ent.n;
        int a, b;
        if (lv->i == lv->nmoves) {
            w_pop(R, w);
            continue;
        }
        a = w->mv.d[lv->mv_off + 2 * (size_t)lv->i];
        b = w->mv.d[lv->mv_off + 2 * (size_t)lv->i + 1];
        lv->i++;
        if (w_play(R, w, a, b) < 0 || (home && w_home(R, w) < 0))
            return -1;
        len = blind_key(s, p, bkey);
        h = hash_key(bkey, (size_t)len);
        if (table_find(&s->tab, bkey, len, h) >= 0) {
            w_leave(R, w, ent_off);
            continue;
        }
        if (won(p)) {
            *line = w_line(w);
            return *line ? 2 : -1;
        }
        if ((long long)s->tab.n >= s->max_table)
            return 0;
        if (table_add(&s->tab, bkey, len, h, -1, 0, 0) < 0)
            return -1;
        if (R->hole_dead_ends && stuck(R, p)) {
            w_leave(R, w, ent_off);
            continue;
        }
        w->yielded = 1;
        w->pend_ent = ent_off;
        *klen = make_key(T, p, key);
        return 1;
    }
    return 0;
}

/* `streamline._fast_streamliner`, resumable: its games one after the other */
static PyObject *run_streamliners(SearchObject *s, long long allowed)
{
    Walk *w = &s->w[0];
    int r;
    if (s->phase == 0) {
        s->game = 0;
        if (w_reset(w, s->R.T, &s->start, 1) < 0)
            return NULL;
        s->phase = 2;
    }
    for (;;) {
        if (!s->pending) {
            PyObject *line = NULL;
            int len = 0;
            if (s->game >= s->ngames)
                return finish(s, "unknown", NULL, s->states);
            r = stream_next(s, w, s->games[s->game], s->pending_key, &len, &line);
            if (r < 0)
                return NULL;
            if (r == 2)
                return finish_won(s, line, s->states);
            if (r == 0) {
                s->game++;
                table_free(&s->tab);
                if (w_reset(w, s->R.T, &s->start, 1) < 0)
                    return NULL;
                continue;
            }
            if (s->examined >= s->limit || (s->ledger && s->ledger->work >= s->ledger->work_cap))
                return finish(s, "unknown", NULL, s->states);
            s->pending_len = len;
            s->pending = 1;
        }
        if (s->states >= allowed)
            return paused(s->states);
        s->pending = 0;
        r = check_clock(s);
        if (r < 0)
            return NULL;
        if (r)
            return finish(s, "unknown", NULL, s->states);
        s->examined++;
        if (!s->ledger) {
            s->states++;
        } else {
            r = ledger_count(s->ledger, s->pending_key, s->pending_len);
            if (r < 0)
                return NULL;
            s->states += r;
        }
    }
}

/* ------------------------------------------------------------------ the Python type */
static PyTypeObject SearchType;

static void Search_dealloc(SearchObject *s)
{
    int k;
    table_free(&s->tab);
    PyMem_RawFree(s->heap);
    for (k = 0; k < MAXWALKS; k++)
        w_free(&s->w[k]);
    Py_XDECREF((PyObject *)s->ledger);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int flag(PyObject *o, int *out)
{
    int r = PyObject_IsTrue(o);
    if (r < 0)
        return -1;
    *out = r;
    return 0;
}

static int card_bytes(PyObject *o, int most, uint8_t *out, int *n)
{
    Py_ssize_t k, len;
    if (!PyBytes_Check(o) || (len = PyBytes_GET_SIZE(o)) > most) {
        PyErr_Format(PyExc_ValueError, "expected bytes of at most %d card ids", most);
        return -1;
    }
    for (k = 0; k < len; k++) {
        int c = (uint8_t)PyBytes_AS_STRING(o)[k];
        if (c >= 52) {
            PyErr_SetString(PyExc_ValueError, "a card id above 51");
            return -1;
        }
        out[k] = (uint8_t)c;
    }
    *n = (int)len;
    return 0;
}

static int Search_init(SearchObject *s, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"kind", "piles", "heights", "accepts", "empty_any", "empty_king", "takeback",
                             "autoplay", "rule3", "dead_ends", "hole_dead_ends", "order_fc", "fc_values",
                             "urgency", "disorder", "max_table", "ledger", "deadline", "limit", "walks",
                             "quota", "games", "classes", NULL};
    PyObject *piles, *heights, *accepts, *fl[8], *fc, *urgency, *ledger, *deadline, *games, *classes;
    long long max_table, limit = 0;
    int kind, disorder, i, k, f[8], seen[52], n, walks = 0, quota = 0;
    Rules *R = &s->R;
    if (s->phase || s->kind || s->R.T) {
        PyErr_SetString(PyExc_RuntimeError, "FastSearch is initialised once");
        return -1;
    }
    games = Py_None;
    classes = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO!SO!OOOOOOOOSO!iLOO|LiiOO", kwlist, &kind, &PyList_Type, &piles,
                                     &heights, &PyList_Type, &accepts, &fl[0], &fl[1], &fl[2], &fl[3], &fl[4],
                                     &fl[5], &fl[6], &fl[7], &fc, &PyTuple_Type, &urgency, &disorder, &max_table,
                                     &ledger, &deadline, &limit, &walks, &quota, &games, &classes))
        return -1;
    if (kind < BEST_FIRST || kind > STREAMLINERS) {
        PyErr_SetString(PyExc_ValueError, "kind: 0 best-first, 1 depth-first, 2 probe, 3 streamliners");
        return -1;
    }
    s->kind = kind;
    for (k = 0; k < 8; k++)
        if (flag(fl[k], &f[k]) < 0)
            return -1;
    R->empty_any = f[0];
    R->empty_king = f[1];
    R->takeback = f[2];
    R->autoplay = f[3];
    R->rule3 = f[4];
    R->dead_ends = f[5];
    R->hole_dead_ends = f[6];
    s->order_fc = f[7];
    s->plain = !R->autoplay && !R->takeback;
    if (PyList_GET_SIZE(piles) < 1 || PyList_GET_SIZE(piles) > MAXT) {
        PyErr_Format(PyExc_ValueError, "between 1 and %d tableau piles", MAXT);
        return -1;
    }
    R->T = (int)PyList_GET_SIZE(piles);
    if (PyBytes_GET_SIZE(heights) != 4 || PyBytes_GET_SIZE(fc) != 52 || PyList_GET_SIZE(accepts) != 52) {
        PyErr_SetString(PyExc_ValueError, "heights: 4 bytes, fc_values: 52 bytes, accepts: 52 entries");
        return -1;
    }
    memcpy(s->fc, PyBytes_AS_STRING(fc), 52);
    memset(seen, 0, sizeof seen);
    for (k = 0; k < 4; k++) {
        int hk = (uint8_t)PyBytes_AS_STRING(heights)[k], r;
        if (hk > 13) {
            PyErr_SetString(PyExc_ValueError, "a height above 13");
            return -1;
        }
        s->start.h[k] = (uint8_t)hk;
        for (r = 0; r < hk; r++)
            seen[k * 13 + r]++;
    }
    for (i = 0; i < R->T; i++) {
        if (card_bytes(PyList_GET_ITEM(piles, i), 52, s->start.c[i], &n) < 0)
            return -1;
        s->start.n[i] = (uint8_t)n;
        for (k = 0; k < n; k++)
            seen[s->start.c[i][k]]++;
    }
    for (k = 0; k < 52; k++)
        if (seen[k] != 1) {
            PyErr_SetString(PyExc_ValueError, "the piles and heights must hold each card once");
            return -1;
        }
    for (k = 0; k < 52; k++) {
        if (card_bytes(PyList_GET_ITEM(accepts, k), 52, R->children[k], &n) < 0)
            return -1;
        R->nchildren[k] = (uint8_t)n;
    }
    /* the cards c may lie on, ascending (`_Fast.parents`) */
    for (k = 0; k < 52; k++)
        for (i = 0; i < R->nchildren[k]; i++) {
            int x = R->children[k][i];
            R->parents[x][R->nparents[x]++] = (uint8_t)k;
            R->parent_bits[x] |= 1ULL << k;
        }
    s->nurg = (int)PyTuple_GET_SIZE(urgency);
    if (s->nurg > 16) {
        PyErr_SetString(PyExc_ValueError, "at most 16 urgency weights");
        return -1;
    }
    for (k = 0; k < s->nurg; k++) {
        s->urg[k] = (int)PyLong_AsLong(PyTuple_GET_ITEM(urgency, k));
        if (s->urg[k] == -1 && PyErr_Occurred())
            return -1;
    }
    s->disorder = disorder;
    s->max_table = max_table;
    s->limit = limit;
    if (kind == PROBE && (walks < 1 || walks > MAXWALKS || quota < 1)) {
        PyErr_Format(PyExc_ValueError, "the probe: 1 to %d walks, a quota of at least 1", MAXWALKS);
        return -1;
    }
    s->nwalks = walks;
    s->quota = quota;
    if (kind == STREAMLINERS) {
        if (!PyTuple_Check(games) || PyTuple_GET_SIZE(games) > 8 || !PyBytes_Check(classes) ||
            PyBytes_GET_SIZE(classes) != 52) {
            PyErr_SetString(PyExc_ValueError, "the streamliners: games, a tuple of flags; classes, 52 bytes");
            return -1;
        }
        s->ngames = (int)PyTuple_GET_SIZE(games);
        for (k = 0; k < s->ngames; k++) {
            if (flag(PyTuple_GET_ITEM(games, k), &n) < 0)
                return -1;
            s->games[k] = (uint8_t)n;
        }
        memcpy(s->blind, PyBytes_AS_STRING(classes), 52);
    }
    if (ledger != Py_None) {
        if (!PyObject_TypeCheck(ledger, &LedgerType)) {
            PyErr_SetString(PyExc_TypeError, "ledger: a solitaire_nb_core Ledger or None");
            return -1;
        }
        Py_INCREF(ledger);
        s->ledger = (LedgerObject *)ledger;
    }
    if (deadline != Py_None) {
        s->deadline = PyFloat_AsDouble(deadline);
        if (s->deadline == -1.0 && PyErr_Occurred())
            return -1;
        s->has_deadline = 1;
    }
    return 0;
}

static PyObject *Search_run(SearchObject *s, PyObject *arg)
{
    long long allowed = PyLong_AsLongLong(arg);
    if (allowed == -1 && PyErr_Occurred())
        return NULL;
    if (!s->R.T) {
        PyErr_SetString(PyExc_RuntimeError, "FastSearch was not initialised");
        return NULL;
    }
    if (s->phase == 3) {
        PyErr_SetString(PyExc_RuntimeError, "the search has ended");
        return NULL;
    }
    switch (s->kind) {
    case DEPTH_FIRST:
        return run_dfs(s, allowed);
    case PROBE:
        return run_probe(s, allowed);
    case STREAMLINERS:
        return run_streamliners(s, allowed);
    default:
        return run_best_first(s, allowed);
    }
}

static PyObject *Search_get_table(SearchObject *s, void *Py_UNUSED(c))
{
    return PyLong_FromSize_t(s->tab.n);
}

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)Search_run, METH_O,
     "Run until `allowed` states in all: (states, None) when paused there, (states, (status, line, states)) at the end."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Search_getset[] = {
    {"table_size", (getter)Search_get_table, NULL, "Keys in the search's own table.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "solitaire_nb_core._core.FastSearch",
    .tp_doc = "One search on the one-deck fast state: best-first, depth-first, the probe or the streamliners.",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef coremodule = {
    PyModuleDef_HEAD_INIT, "_core", "solitaire_nb's compiled search core (the one-deck fast state).", -1, NULL,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *m;
    init_codes();
    if (PyType_Ready(&LedgerType) < 0 || PyType_Ready(&SearchType) < 0)
        return NULL;
    time_module = PyImport_ImportModule("time");
    if (!time_module)
        return NULL;
    m = PyModule_Create(&coremodule);
    if (!m)
        return NULL;
    Py_INCREF(&LedgerType);
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Ledger", (PyObject *)&LedgerType) < 0 ||
        PyModule_AddObject(m, "FastSearch", (PyObject *)&SearchType) < 0 ||
        PyModule_AddIntConstant(m, "API", API_VERSION) < 0 || PyModule_AddIntConstant(m, "MAX_PILES", MAXT) < 0 ||
        PyModule_AddIntConstant(m, "BEST_FIRST", BEST_FIRST) < 0 ||
        PyModule_AddIntConstant(m, "DEPTH_FIRST", DEPTH_FIRST) < 0 || PyModule_AddIntConstant(m, "PROBE", PROBE) < 0 ||
        PyModule_AddIntConstant(m, "STREAMLINERS", STREAMLINERS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
