# The compiled build (docs/compiled.md) makes PlaySearcher an extension type: its fields
# are C struct members (the flags C ints) instead of instance-dict entries, and the methods
# called only inside the search are C methods with C int scores, depths and bounds. The
# attributes are those __init__ of play.py sets (which stays plain Python, the one
# source); the methods the tests call from Python stay callable (cpdef, or def).
from tavrei_lab.core.position cimport Position as _CPosition
from tavrei_lab.engine.play_eval cimport BoardTables

cdef class PlaySearcher:
    cdef public BoardTables tables
    cdef public object rules, clock, tower_rules, weights, die, die_faces
    cdef public object _middle_tables, _end_tables, noise, noise_key, max_table
    cdef public object _deadline, _node_limit, _path, _game
    cdef public bint fast, has_chance, incremental, pass_over_own, fifty, phases, chess
    cdef public bint quiescence, null_move, reductions, star2
    cdef public int contempt, recapture_ply, nodes, _promotion, _lazy, _size
    cdef public list _draw, _value_cp, killers
    cdef public dict table, history, _moves

    cdef int _child(self, _CPosition child, object h, int score, int depth, int ply,
                    int alpha, int beta, bint same_turn) except? -1
    cdef void _tick(self) except *
    cdef int _node(self, _CPosition pos, object h, int score, int depth, int ply, int alpha,
                   int beta, bint null_ok) except? -1
    cdef void _store(self, object h, int depth, int flag, int value, object move,
                     int ply) except *
    cpdef bint _has_pieces(self, _CPosition pos, int me) except -1
    cdef int _quiesce(self, _CPosition pos, int score, int ply, int alpha, int beta,
                      bint in_check, int qply, object h, int last=*) except? -1
    cpdef bint _pseudo_legal(self, _CPosition pos, object m) except -1
    cpdef list _quiescence_moves(self, _CPosition pos, int qply, int last)
    cpdef list _evasion_candidates(self, _CPosition pos, list moves)
    cdef int _gain(self, object board, object m, int me) except? -1
    cpdef list _tactical_moves(self, _CPosition pos, bint free=*, bint every_count=*)
    cpdef int _score_after(self, int score, _CPosition before, object move,
                           _CPosition after) except? -1
    cdef object _move(self, int s, int count, int to, int p)
    cdef int _evaluate(self, _CPosition pos, int score, int alpha, int beta,
                       object h) except? -1
