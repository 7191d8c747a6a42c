(define (problem porter-2)
  (:domain porter)
  (:objects
    lab ward - room
    blood1 blood2 urine1 - parcel
    left right - basket
  )
  (:init
    (corridor lab ward)
    (corridor ward lab)
    (robot-in lab)
    (lies-in blood1 lab)
    (lies-in blood2 lab)
    (lies-in urine1 lab)
    (empty left)
    (empty right)
  )
  (:goal (and
    (lies-in blood1 ward)
    (lies-in blood2 ward)
    (lies-in urine1 ward)
  ))
)
