# Score scale shared by the searchers (side-to-move or named-player relative).
# A proven win in n plies scores MATE - n, a proven loss -(MATE - n); heuristic scores stay
# within +-EVAL_BOUND (engine/evaluation.pxd), so any |score| > MATE_THRESHOLD is a proof.
cdef enum:
    MATE = 100000
    MATE_THRESHOLD = 90000
    INFINITE_SCORE = 1000000
