(define (problem blocks-2)
  (:domain blocks)
  (:objects
    red blue green yellow - block
  )
  (:init
    (on-table red)
    (on blue red)
    (free blue)
    (on-table green)
    (on yellow green)
    (free yellow)
    (arm-empty)
  )
  (:goal (and
    (on-table yellow)
    (on green yellow)
    (on blue green)
    (on red blue)
  ))
)
