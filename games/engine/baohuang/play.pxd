# Cython declarations for the compiled engine (``make engine-fast``): they
# type small integer locals of ``play.py``'s per-action path, which stays pure
# Python with the same semantics (docs/bots.md, Session 21).  Seats, bit masks
# of five seats and card kinds are small: no overflow; ``%`` of a non-negative
# number is the same in C.
import cython


@cython.locals(p=cython.int, passed=cython.int, top_seat=cython.int,
               leader=cython.int)
cpdef _advance(new, int actor)
