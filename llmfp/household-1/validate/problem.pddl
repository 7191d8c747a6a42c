(define (problem household-1)
  (:domain kitchen-tidy)
  (:objects counter sink - place plate - item)
  (:init
    (robot-at sink)
    (handempty)
    (reachable counter)
    (tap sink)
    (reachable sink)
    (at plate sink)
    (dirty plate))
  (:goal (and
    (at plate counter)
    (clean plate))))
