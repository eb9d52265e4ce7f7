# Cython declarations for the compiled engine (``make engine-fast``): they
# type the locals of the hot loops of ``bots.py``, which stays pure Python
# with the same semantics (docs/bots.md, Session 21).  Only small counts are
# C ints (ranks, card counts, loop indices: no overflow); costs are C
# doubles, the same IEEE operations in the same order as Python floats.
import cython


@cython.locals(k=cython.int, z=cython.int, y=cython.int, x=cython.int,
               n=cython.int, r=cython.int, have=cython.int, left=cython.int,
               bonus=cython.int,
               best_cost=cython.double, base=cython.double, cost=cython.double,
               c_h4=cython.double, c_bj=cython.double, c_sj=cython.double,
               rank_w=cython.double, two_pen=cython.double,
               split_pen=cython.double, split_one=cython.double)
cpdef tuple _cheapest_beat(rc, top, int non3, p)


@cython.locals(non3=cython.int, lo=cython.int, top_seat=cython.int)
cpdef _follow(kn, p)
