# Cython declarations for the compiled engine (``make engine-fast``): they
# type small integer locals of ``play.py``'s per-action path, which stays pure
# Python with the same semantics (docs/bots.md, Session 21).  Seats, bit masks
# of five seats and card kinds are small: no overflow; ``%`` of a non-negative
# number is the same in C.
import cython


@cython.locals(p=cython.int)
cpdef next_in_round(int actor, int top_seat, sizes, int passed)


@cython.locals(leader=cython.int)
cpdef int round_leader(int top_seat, sizes) except -1


@cython.locals(top_seat=cython.int)
cpdef _advance(new, int actor)
