(define (problem mystery-1)
  (:domain mote-shuffle)
  (:objects vop trel quam - mote)
  (:init
    (vacant)
    (floony vop)
    (floony trel)
    (skels quam vop)
    (brindled trel)
    (brindled quam))
  (:goal (and
    (skels trel quam)
    (floony quam))))
