(define (problem painting-unsolvable)
  (:domain painting)
  (:objects
    t1-1 t1-2 t2-1 t2-2 - tile
    black white - colour
  )
  (:init
    (robot-on t2-1)
    (carrying black)
    (bare t1-1)
    (bare t1-2)
    (bare t2-1)
    (bare t2-2)
    (next-to t1-1 t1-2)
    (next-to t1-2 t1-1)
    (next-to t1-1 t2-1)
    (next-to t2-1 t1-1)
    (next-to t1-2 t2-2)
    (next-to t2-2 t1-2)
    (next-to t2-1 t2-2)
    (next-to t2-2 t2-1)
  )
  (:goal (and
    (painted t1-1 black)
    (painted t1-2 black)
    (painted t2-1 black)
    (painted t2-2 black)
  ))
)
