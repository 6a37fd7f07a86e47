# The compiled build (docs/compiled.md) makes ChessTables an extension type, like the
# BoardTables it extends (play_eval.pxd): the attributes __init__ of chess_eval.py sets,
# as C struct members holding the same Python objects.
from tavrei_lab.engine.play_eval cimport BoardTables, line_reach

cdef class ChessTables(BoardTables):
    cdef public object phase, lazy_margin, width, height, _blend, psq, doubled
    cdef public object isolated, passed, rook_open, rook_half_open, bishop_pair
    cdef public object shelter_scale, bit, file_mask, ahead, _pawn_cache, _shelter_cache

    cpdef object tower_score(self, object square, object tower)
    cpdef object activity(self, object board, object kings, object pass_over_own=*)
