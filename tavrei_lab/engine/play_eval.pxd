# The compiled build (docs/compiled.md) makes BoardTables an extension type: its fields
# are C struct members, read at every leaf without an instance-dict look-up. They are
# the attributes __init__ of play_eval.py sets (which stays plain Python, the one
# source); every one stays a Python object, so the values are the pure build's.
cdef class BoardTables:
    cdef public object weights, value_by_kind, held_by_kind, buried_by_kind
    cdef public object mobility, volkhv_attack, hunt_edge, hunt_near, hunt_room
    cdef public object hunt_ratnik, hunt_trade, hunting, _whole, geometry
    cdef public object centre, max_ring, from_centre, longest_way, full, not_left
    cdef public object not_right, size, bonus, zone, knight_mask, king_mask, ray_mask
    cdef public object lines, knight_count, pawn_attacks, pawn_mask, reach, rank_mask
    cdef public object near_far, forward, _tower_cache

    # the two the playing search calls at every node (play.pxd types its tables so):
    # C calls from there, Python methods from anywhere else
    cpdef object tower_score(self, object square, object tower)
    cpdef object activity(self, object board, object kings, object pass_over_own=*)
    # what activity calls in a won ending (the conversion terms): C calls from there too
    cpdef object hunt_material(self, object board, object strong, object weak_tops)
    cpdef object room_lost(self, object board, object strong, object hunted,
                           object pass_over_own=*)
    cpdef object attacks(self, object board, object color, object through,
                         object pass_over_own=*)
    cpdef object hunt_terms(self, object strong, object white_king, object black_king)

# the line walk both evaluations call per line mover (chess_eval cimports it): a C call
cpdef object line_reach(object board, tuple lines, int c, bint pass_own,
                        Py_ssize_t through=*)
