(define (problem blocks-unsolvable)
  (:domain blocks)
  (:objects
    red blue green - block
  )
  (:init
    (on-table red)
    (free red)
    (on-table blue)
    (free blue)
    (on-table green)
    (free green)
    (arm-empty)
  )
  (:goal (and
    (on red blue)
    (on blue green)
    (on green red)
  ))
)
