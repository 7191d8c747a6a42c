(define (problem blocks-1)
  (:domain blocks)
  (:objects
    red blue green - block
  )
  (:init
    (on-table red)
    (on blue red)
    (on green blue)
    (free green)
    (arm-empty)
  )
  (:goal (and
    (on-table green)
    (on blue green)
    (on red blue)
  ))
)
