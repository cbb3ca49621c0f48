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
typedef struct {
    uint64_t off;
    uint32_t hash;
    uint16_t len;
    uint8_t a, b;
    int64_t parent;  /* entry of the parent key, -1 for the root */
} Entry;

typedef struct {
    uint8_t *arena;
    size_t alen, acap;
    Entry *e;
    size_t n, ecap;
    uint32_t *idx;   /* entry + 1, 0 free */
    size_t icap;
} Table;

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
    if (!t->icap)
        return -1;
    mask = t->icap - 1;
    for (i = (size_t)h & mask;; i = (i + 1) & mask) {
        uint32_t v = t->idx[i];
        const Entry *e;
        if (!v)
            return -1;
        e = &t->e[v - 1];
        if (e->hash == (uint32_t)(h >> 32) && e->len == len && !memcmp(t->arena + e->off, key, (size_t)len))
            return (int64_t)v - 1;
    }
}

static int table_grow_index(Table *t)
{
    size_t cap = t->icap ? t->icap * 2 : 1024, i, mask = cap - 1;
    uint32_t *idx = PyMem_RawCalloc(cap, sizeof *idx);
    if (!idx)
        return -1;
    for (i = 0; i < t->n; i++) {
        uint64_t h = hash_key(t->arena + t->e[i].off, t->e[i].len);
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
    if (t->n >= 0xfffffff0U) {
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
    if (t->alen + (size_t)len > t->acap) {
        size_t cap = t->acap ? t->acap * 2 : 65536;
        uint8_t *na;
        while (cap < t->alen + (size_t)len)
            cap *= 2;
        na = PyMem_RawRealloc(t->arena, cap);
        if (!na)
            goto nomem;
        t->arena = na;
        t->acap = cap;
    }
    e = &t->e[t->n];
    e->off = t->alen;
    e->len = (uint16_t)len;
    e->hash = (uint32_t)(h >> 32);
    e->parent = parent;
    e->a = (uint8_t)a;
    e->b = (uint8_t)b;
    memcpy(t->arena + t->alen, key, (size_t)len);
    t->alen += (size_t)len;
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
    if (*len > 65535) {
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

/* one move entered (depth-first and line records): the move, its description and how many
 * cards its autoplay sent home (their (pile, card) pairs follow in the autoplay stack) */
typedef struct {
    uint8_t a, b, nauto;
    int8_t card, dest;
} Entered;

typedef struct {
    size_t mv_off;  /* its moves, in the move stack */
    int nmoves, i;
    size_t ent_off; /* the moves that entered it, in the entered stack */
    int nent;
    size_t aut_off; /* their autoplay records */
} Level;

typedef struct {
    int64_t score, count;
    uint32_t entry;
} HeapItem;

/* ------------------------------------------------------------------ the search object */
typedef struct {
    PyObject_HEAD
    Rules R;
    int depth_first, order_fc, plain;
    uint8_t fc[52];
    int nurg, urg[16], disorder;
    long long max_table;
    LedgerObject *ledger;
    int has_deadline;
    double deadline;
    Pos pos;
    int phase;       /* 0 new, 1 root to test (best-first), 2 running, 3 ended */
    long long states, examined, count;
    PyObject *root_line;
    Table tab;
    HeapItem *heap;
    size_t nheap, heapcap;
    /* depth-first */
    Level *path;
    size_t npath, pathcap;
    Bytes mv, ent, aut;
    int pending, pending_new, pending_len;
    size_t pending_ent, pending_aut;
    uint8_t pending_key[KEYMAX];
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

static PyObject *pair(int card, int dest)
{
    return Py_BuildValue("(ii)", card, dest);
}

static int append_pair(PyObject *line, int card, int dest)
{
    PyObject *t = pair(card, dest);
    int r;
    if (!t)
        return -1;
    r = PyList_Append(line, t);
    Py_DECREF(t);
    return r;
}

/* play the move a→b describing it into `line` (when not NULL); the autoplay's cards are
 * appended to `aut` (room for 104 bytes); returns how many */
static int play_described(SearchObject *s, int a, int b, uint8_t *aut, Entered *rec)
{
    int card, dest, na;
    describe(&s->R, &s->pos, a, b, &card, &dest);
    na = play(&s->R, &s->pos, a, b, aut);
    rec->a = (uint8_t)a;
    rec->b = (uint8_t)b;
    rec->card = (int8_t)card;
    rec->dest = (int8_t)dest;
    rec->nauto = (uint8_t)na;
    return na;
}

/* `_play_safe_moves` (rule 3), describing each move into `line` */
static int play_safe_into(SearchObject *s, PyObject *line)
{
    int T = s->R.T, i;
    uint8_t aut[104];
    Entered rec;
    while ((i = safe_move(&s->R, &s->pos)) >= 0) {
        int c = TOP(&s->pos, i);
        play_described(s, i, T + c / 13, aut, &rec);
        if (append_pair(line, rec.card, rec.dest) < 0)
            return -1;
    }
    return 0;
}

static int won(const Pos *p)
{
    return p->h[0] + p->h[1] + p->h[2] + p->h[3] == 52;
}

static PyObject *finish(SearchObject *s, const char *status, PyObject *line, long long states)
{
    PyObject *r;
    s->phase = 3;
    if (!line) {
        line = PyList_New(0);
        if (!line)
            return NULL;
    } else {
        Py_INCREF(line);
    }
    r = Py_BuildValue("(L(sNL))", states, status, line, states);
    return r;
}

static PyObject *paused(long long states)
{
    return Py_BuildValue("(LO)", states, Py_None);
}

/* `search._fast_line`: the described line from the root to entry `k`: each step replays
 * its move on its parent position (restored from its key) and, with rule 3, `_enter_fast` */
static PyObject *best_first_line(SearchObject *s, int64_t k)
{
    int T = s->R.T;
    int64_t *steps = NULL, e;
    size_t n = 0, cap = 0, j;
    PyObject *line = PySequence_List(s->root_line);
    uint8_t aut[104];
    Entered rec;
    if (!line)
        return NULL;
    for (e = k; s->tab.e[e].parent >= 0; e = s->tab.e[e].parent) {
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
        const Entry *x = &s->tab.e[steps[j]], *par = &s->tab.e[x->parent];
        int a = x->a, b = x->b;
        restore(T, &s->pos, s->tab.arena + par->off, par->len);
        play_described(s, a, b, aut, &rec);
        if (append_pair(line, rec.card, rec.dest) < 0)
            goto fail;
        if (s->R.rule3) {
            /* `_enter_fast`: after a move between piles, only the source's new top may be safe */
            int go = 1;
            if (a < T && b < T) {
                if (!s->pos.n[a]) {
                    go = 0;
                } else {
                    int c = TOP(&s->pos, a);
                    if (s->pos.h[c / 13] != c % 13 || !harmless_children(&s->R, &s->pos, c)) {
                        go = 0;
                    } else {
                        play_described(s, a, T + c / 13, aut, &rec);
                        if (append_pair(line, rec.card, rec.dest) < 0)
                            goto fail;
                    }
                }
            }
            if (go && play_safe_into(s, line) < 0)
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

/* `search._fast_search`, resumable: runs until `allowed` states or a verdict */
static PyObject *run_best_first(SearchObject *s, long long allowed)
{
    int T = s->R.T;
    uint8_t key[KEYMAX], ckey[KEYMAX], moves[2 * MAXMOVES], aut[104];
    if (s->phase == 0) {
        s->root_line = PyList_New(0);
        if (!s->root_line)
            return NULL;
        if (s->R.rule3 && play_safe_into(s, s->root_line) < 0)
            return NULL;
        if (won(&s->pos))
            return finish(s, "won", s->root_line, 0);
        s->phase = 1;
    }
    if (s->phase == 1) {
        int len;
        int64_t root;
        if (allowed < 1)
            return paused(0);
        if (dead(&s->R, &s->pos, -1, -1) || (s->R.hole_dead_ends && stuck(&s->R, &s->pos)))
            return finish(s, "lost", NULL, 1);
        len = make_key(T, &s->pos, key);
        root = table_add(&s->tab, key, len, hash_key(key, (size_t)len), -1, 0, 0);
        if (root < 0 || heap_push(s, score(s, &s->pos), 0, (uint32_t)root) < 0)
            return NULL;
        s->phase = 2;
    }
    while (s->nheap) {
        HeapItem it;
        const Entry *e;
        int len, nm, m, r;
        if (s->states >= allowed)
            return paused(s->states);
        if ((long long)s->tab.n >= s->max_table)
            return finish(s, "unknown", NULL, s->states);
        it = heap_pop(s);
        e = &s->tab.e[it.entry];
        len = e->len;
        memcpy(key, s->tab.arena + e->off, (size_t)len);
        restore(T, &s->pos, key, len);
        if (s->R.hole_dead_ends && stuck(&s->R, &s->pos))
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
        if (s->R.dead_ends && stuck(&s->R, &s->pos))
            continue;
        nm = gen_moves(&s->R, &s->pos, moves);
        for (m = 0; m < nm; m++) {
            int a = moves[2 * m], b = moves[2 * m + 1], clen, between = a < T && b < T, na;
            uint64_t h;
            /* the moves into the child: this one, then rule 3's safe moves */
            uint8_t ea[53], eb[53];
            int ne = 0, k;
            na = play(&s->R, &s->pos, a, b, aut);
            ea[0] = (uint8_t)a;
            eb[0] = (uint8_t)b;
            ne = 1;
            if (s->plain) {
                int go = 0;
                if (s->R.rule3) {
                    if (b >= T) {
                        go = 1;
                    } else if (s->pos.n[a]) {
                        int c = TOP(&s->pos, a);
                        go = s->pos.h[c / 13] == c % 13;
                    }
                }
                if (go && safe_move(&s->R, &s->pos) >= 0) {
                    int i;
                    while ((i = safe_move(&s->R, &s->pos)) >= 0) {
                        int c = TOP(&s->pos, i);
                        ea[ne] = (uint8_t)i;
                        eb[ne] = (uint8_t)(T + c / 13);
                        raw(&s->pos, T, i, T + c / 13);
                        ne++;
                    }
                    between = 0;
                }
            } else if (na) {
                between = 0;
            }
            clen = make_key(T, &s->pos, ckey);
            h = hash_key(ckey, (size_t)clen);
            if (table_find(&s->tab, ckey, clen, h) < 0) {
                int64_t child = table_add(&s->tab, ckey, clen, h, it.entry, a, b);
                if (child < 0)
                    return NULL;
                if (won(&s->pos)) {
                    PyObject *line = best_first_line(s, child), *res;
                    if (!line)
                        return NULL;
                    res = finish(s, "won", line, s->states);
                    Py_DECREF(line);
                    return res;
                }
                if (!(s->R.dead_ends && (between ? dead(&s->R, &s->pos, a, b) : dead(&s->R, &s->pos, -1, -1)))) {
                    s->count++;
                    if (heap_push(s, score(s, &s->pos), s->count, (uint32_t)child) < 0)
                        return NULL;
                }
            }
            for (k = ne - 1; k >= 0; k--)
                undo_move(&s->R, &s->pos, ea[k], eb[k], aut, k ? 0 : na);
        }
    }
    return finish(s, "lost", NULL, s->states);
}

/* ------------------------------------------------------------------ depth-first */
/* `heuristics._dfs_moves`: moves home, into a hole, onto a card, take-backs; each kind by
 * source then destination pile, piles ranked by their cards from the bottom (card ids, or
 * Freecell Solver's numbering with `order_fc`) */
static int dfs_moves(SearchObject *s, uint8_t *out)
{
    int T = s->R.T, n, i, k, rank[MAXT + 4], idx[MAXT];
    uint8_t mv[2 * MAXMOVES], tr[MAXT][52];
    uint64_t codes[MAXMOVES];
    const Pos *p = &s->pos;
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

static int push_level(SearchObject *s, size_t ent_off, int nent, size_t aut_off)
{
    uint8_t moves[2 * MAXMOVES];
    int n = dfs_moves(s, moves);
    Level *lv;
    if (s->npath == s->pathcap) {
        size_t cap = s->pathcap ? s->pathcap * 2 : 256;
        Level *np = PyMem_RawRealloc(s->path, cap * sizeof *np);
        if (!np) {
            PyErr_NoMemory();
            return -1;
        }
        s->path = np;
        s->pathcap = cap;
    }
    if (bytes_reserve(&s->mv, 2 * (size_t)n) < 0)
        return -1;
    lv = &s->path[s->npath++];
    lv->mv_off = s->mv.n;
    memcpy(s->mv.d + s->mv.n, moves, 2 * (size_t)n);
    s->mv.n += 2 * (size_t)n;
    lv->nmoves = n;
    lv->i = 0;
    lv->ent_off = ent_off;
    lv->nent = nent;
    lv->aut_off = aut_off;
    return 0;
}

/* take back the entered moves stored from `ent_off` (`nent` of them) and drop their records */
static void leave(SearchObject *s, size_t ent_off, int nent, size_t aut_off)
{
    int k;
    const Entered *rec = (const Entered *)(s->ent.d + ent_off);
    size_t at = aut_off, offs[64];
    for (k = 0; k < nent; k++) {
        offs[k] = at;
        at += 2 * (size_t)rec[k].nauto;
    }
    for (k = nent - 1; k >= 0; k--)
        undo_move(&s->R, &s->pos, rec[k].a, rec[k].b, s->aut.d + offs[k], rec[k].nauto);
    s->ent.n = ent_off;
    s->aut.n = aut_off;
}

/* enter one move (and rule 3's safe moves after it) at the top of the entered stack */
static int enter(SearchObject *s, int a, int b, int *nent)
{
    int T = s->R.T;
    Entered *rec;
    if (bytes_reserve(&s->ent, 53 * sizeof(Entered)) < 0 || bytes_reserve(&s->aut, 104) < 0)
        return -1;
    rec = (Entered *)(s->ent.d + s->ent.n);
    s->aut.n += 2 * (size_t)play_described(s, a, b, s->aut.d + s->aut.n, rec);
    s->ent.n += sizeof(Entered);
    *nent = 1;
    if (s->plain) {
        int go = 0;
        if (s->R.rule3) {
            if (b >= T) {
                go = 1;
            } else if (s->pos.n[a]) {
                int c = TOP(&s->pos, a);
                go = s->pos.h[c / 13] == c % 13;
            }
        }
        if (go) {
            int i;
            while ((i = safe_move(&s->R, &s->pos)) >= 0) {
                int c = TOP(&s->pos, i);
                rec = (Entered *)(s->ent.d + s->ent.n);
                play_described(s, i, T + c / 13, NULL, rec);
                s->ent.n += sizeof(Entered);
                (*nent)++;
            }
        }
    }
    return 0;
}

/* the described line: the root's safe moves, then every entered move on the path */
static PyObject *dfs_line(SearchObject *s)
{
    PyObject *line = PySequence_List(s->root_line);
    size_t k, n = s->ent.n / sizeof(Entered);
    const Entered *rec = (const Entered *)s->ent.d;
    if (!line)
        return NULL;
    for (k = 0; k < n; k++)
        if (append_pair(line, rec[k].card, rec[k].dest) < 0) {
            Py_DECREF(line);
            return NULL;
        }
    return line;
}

/* `search._fast_dfs`, resumable: runs until `allowed` states or a verdict */
static PyObject *run_dfs(SearchObject *s, long long allowed)
{
    int T = s->R.T, r;
    if (s->phase == 0) {
        uint8_t key[KEYMAX];
        int len;
        uint64_t h;
        s->root_line = PyList_New(0);
        if (!s->root_line)
            return NULL;
        if (s->R.rule3 && play_safe_into(s, s->root_line) < 0)
            return NULL;
        if (won(&s->pos))
            return finish(s, "won", s->root_line, 0);
        len = make_key(T, &s->pos, key);
        h = hash_key(key, (size_t)len);
        if (table_add(&s->tab, key, len, h, -1, 0, 0) < 0)
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
        if (push_level(s, 0, 0, 0) < 0)
            return NULL;
        s->phase = 2;
    }
    if (s->pending)
        goto resume;
    while (s->npath) {
        Level *lv = &s->path[s->npath - 1];
        size_t ent_off, aut_off;
        int a, b, nent, len;
        uint64_t h;
        if (lv->i == lv->nmoves) {
            size_t e0 = lv->ent_off, a0 = lv->aut_off;
            int ne = lv->nent;
            s->mv.n = lv->mv_off;
            s->npath--;
            if (ne)
                leave(s, e0, ne, a0);
            continue;
        }
        a = s->mv.d[lv->mv_off + 2 * (size_t)lv->i];
        b = s->mv.d[lv->mv_off + 2 * (size_t)lv->i + 1];
        lv->i++;
        ent_off = s->ent.n;
        aut_off = s->aut.n;
        if (enter(s, a, b, &nent) < 0)
            return NULL;
        len = make_key(T, &s->pos, s->pending_key);
        h = hash_key(s->pending_key, (size_t)len);
        if (table_find(&s->tab, s->pending_key, len, h) >= 0) {
            leave(s, ent_off, nent, aut_off);
            continue;
        }
        if (won(&s->pos)) {
            PyObject *line = dfs_line(s), *res;
            if (!line)
                return NULL;
            res = finish(s, "won", line, s->states);
            Py_DECREF(line);
            return res;
        }
        if (s->R.hole_dead_ends && stuck(&s->R, &s->pos)) {
            if (table_add(&s->tab, s->pending_key, len, h, -1, 0, 0) < 0)
                return NULL;
            leave(s, ent_off, nent, aut_off);
            continue;
        }
        s->pending_new = !s->ledger || !ledger_has(s->ledger, s->pending_key, len);
        s->pending_len = len;
        s->pending_ent = ent_off;
        s->pending_aut = aut_off;
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
        h = hash_key(s->pending_key, (size_t)len);
        if (table_add(&s->tab, s->pending_key, len, h, -1, 0, 0) < 0)
            return NULL;
        if (s->ledger && ledger_count(s->ledger, s->pending_key, len) < 0)
            return NULL;
        s->states += s->pending_new;
        if (push_level(s, s->pending_ent, (int)((s->ent.n - s->pending_ent) / sizeof(Entered)), s->pending_aut) < 0)
            return NULL;
    }
    return finish(s, "lost", NULL, s->states);
}

/* ------------------------------------------------------------------ the Python type */
static PyTypeObject SearchType;

static void Search_clear_mem(SearchObject *s)
{
    table_free(&s->tab);
    PyMem_RawFree(s->heap);
    s->heap = NULL;
    s->nheap = s->heapcap = 0;
    PyMem_RawFree(s->path);
    s->path = NULL;
    s->npath = s->pathcap = 0;
    PyMem_RawFree(s->mv.d);
    PyMem_RawFree(s->ent.d);
    PyMem_RawFree(s->aut.d);
    memset(&s->mv, 0, sizeof s->mv);
    memset(&s->ent, 0, sizeof s->ent);
    memset(&s->aut, 0, sizeof s->aut);
}

static void Search_dealloc(SearchObject *s)
{
    Search_clear_mem(s);
    Py_XDECREF(s->root_line);
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

static int Search_init(SearchObject *s, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"piles", "heights", "accepts", "empty_any", "empty_king", "takeback", "autoplay",
                             "rule3", "dead_ends", "hole_dead_ends", "depth_first", "order_fc", "fc_values",
                             "urgency", "disorder", "max_table", "ledger", "deadline", NULL};
    PyObject *piles, *heights, *accepts, *fl[9], *fc, *urgency, *ledger, *deadline;
    long long max_table;
    int disorder, i, k, f[9], seen[52], total = 0;
    Rules *R = &s->R;
    if (s->phase || s->root_line) {
        PyErr_SetString(PyExc_RuntimeError, "FastSearch is initialised once");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!SO!OOOOOOOOOSO!iLOO", kwlist, &PyList_Type, &piles, &heights,
                                     &PyList_Type, &accepts, &fl[0], &fl[1], &fl[2], &fl[3], &fl[4], &fl[5], &fl[6],
                                     &fl[7], &fl[8], &fc, &PyTuple_Type, &urgency, &disorder, &max_table, &ledger,
                                     &deadline))
        return -1;
    for (k = 0; k < 9; k++)
        if (flag(fl[k], &f[k]) < 0)
            return -1;
    R->empty_any = f[0];
    R->empty_king = f[1];
    R->takeback = f[2];
    R->autoplay = f[3];
    R->rule3 = f[4];
    R->dead_ends = f[5];
    R->hole_dead_ends = f[6];
    s->depth_first = f[7];
    s->order_fc = f[8];
    s->plain = !R->autoplay && !R->takeback;
    R->T = (int)PyList_GET_SIZE(piles);
    if (R->T < 1 || R->T > MAXT) {
        PyErr_Format(PyExc_ValueError, "between 1 and %d tableau piles", MAXT);
        return -1;
    }
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
        s->pos.h[k] = (uint8_t)hk;
        for (r = 0; r < hk; r++)
            seen[k * 13 + r]++;
        total += hk;
    }
    for (i = 0; i < R->T; i++) {
        PyObject *q = PyList_GET_ITEM(piles, i);
        Py_ssize_t n;
        if (!PyBytes_Check(q) || (n = PyBytes_GET_SIZE(q)) > 52) {
            PyErr_SetString(PyExc_ValueError, "each pile: bytes of card ids");
            return -1;
        }
        s->pos.n[i] = (uint8_t)n;
        for (k = 0; k < n; k++) {
            int c = (uint8_t)PyBytes_AS_STRING(q)[k];
            if (c >= 52) {
                PyErr_SetString(PyExc_ValueError, "a card id above 51");
                return -1;
            }
            s->pos.c[i][k] = (uint8_t)c;
            seen[c]++;
        }
        total += (int)n;
    }
    for (k = 0; k < 52; k++)
        if (seen[k] != 1) {
            PyErr_SetString(PyExc_ValueError, "the piles and heights must hold each card once");
            return -1;
        }
    memset(R->nparents, 0, sizeof R->nparents);
    memset(R->parent_bits, 0, sizeof R->parent_bits);
    for (k = 0; k < 52; k++) {
        PyObject *acc = PyList_GET_ITEM(accepts, k);
        Py_ssize_t n, j;
        if (!PyBytes_Check(acc) || (n = PyBytes_GET_SIZE(acc)) > 52) {
            PyErr_SetString(PyExc_ValueError, "accepts: 52 bytes objects of card ids");
            return -1;
        }
        R->nchildren[k] = (uint8_t)n;
        for (j = 0; j < n; j++) {
            int x = (uint8_t)PyBytes_AS_STRING(acc)[j];
            if (x >= 52) {
                PyErr_SetString(PyExc_ValueError, "a card id above 51");
                return -1;
            }
            R->children[k][j] = (uint8_t)x;
        }
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
    (void)total;
    return 0;
}

static PyObject *Search_run(SearchObject *s, PyObject *arg)
{
    long long allowed = PyLong_AsLongLong(arg);
    if (allowed == -1 && PyErr_Occurred())
        return NULL;
    if (s->phase == 3) {
        PyErr_SetString(PyExc_RuntimeError, "the search has ended");
        return NULL;
    }
    return s->depth_first ? run_dfs(s, allowed) : run_best_first(s, allowed);
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
    .tp_doc = "One complete search on the one-deck fast state (search._fast_search or search._fast_dfs).",
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
        PyModule_AddIntConstant(m, "API", API_VERSION) < 0 || PyModule_AddIntConstant(m, "MAX_PILES", MAXT) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
