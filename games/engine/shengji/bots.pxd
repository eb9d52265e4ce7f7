# Augmenting declarations for the optional compiled engine (setup_engine.py,
# ``make engine-fast``): C types for the lead scoring loop of bots.py, which
# stays pure Python (a tree without the .so files never reads this file).
# Every typed local holds a value the pure Python holds: small ints (counts,
# orders, sizes) as C longs, the chances and scores as C doubles (Python
# floats are C doubles; the same operations in the same order).  ``q`` stays a
# Python object: a C double's ``q ** 2`` is ``pow(q, 2.0)``, which the C compiler
# turns into ``q * q``, one ulp away from Python's ``pow`` for some ``q``.
import cython


cdef class Heuristic:
    cdef public object v, legal, rng, seat
    cdef public object _unseen_cache, _unseen_n, _higher, _cut

    @cython.locals(n=cython.long, higher=cython.long, unseen_suit=cython.long,
                   top=cython.long, pts=cython.long, p=cython.double,
                   denom=cython.long, q=object,
                   score=cython.double, bonus=cython.double, loss=cython.double,
                   win_value=cython.long, is_t=cython.bint, pvoid=cython.bint,
                   trump_rich=cython.bint, hand_trumps=cython.long,
                   unseen_trumps=cython.long, r=cython.double)
    cpdef list _lead_scores(self, cands)

    @cython.locals(total=cython.long, n=cython.long)
    cpdef long _higher_unseen(self, suit, long size, long top)

    @cython.locals(total=cython.long, k=cython.long, n=cython.long)
    cpdef dict _unseen(self)
