(define (problem blocks-3)
  (:domain blocks)
  (:objects
    white red blue green yellow - block
  )
  (:init
    (on-table white)
    (on red white)
    (on blue red)
    (free blue)
    (on-table green)
    (on yellow green)
    (free yellow)
    (arm-empty)
  )
  (:goal (and
    (on-table blue)
    (on green blue)
    (on-table red)
    (on yellow red)
    (on white yellow)
  ))
)
