(define (problem mystery-2)
  (:domain mote-shuffle)
  (:objects zink broff sull vop - mote)
  (:init
    (vacant)
    (floony zink)
    (skels broff zink)
    (floony sull)
    (skels vop sull)
    (brindled broff)
    (brindled vop))
  (:goal (and
    (skels zink vop)
    (skels sull broff))))
