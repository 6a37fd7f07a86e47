# The compiled build (docs/compiled.md) makes Position an extension type whose fields are
# C struct slots: the same fields as the __slots__ of position.py, which stays plain Python.
cdef class Position:
    cdef public object rules, board, turn, ep_square, halfmove_clock, fullmove_number, roll
    cdef public object _kings, _key
