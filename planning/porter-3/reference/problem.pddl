(define (problem porter-3)
  (:domain porter)
  (:objects
    lab ward - room
    blood1 blood2 blood3 blood4 swab1 - parcel
    left right - basket
  )
  (:init
    (corridor lab ward)
    (corridor ward lab)
    (robot-in lab)
    (lies-in blood1 lab)
    (lies-in blood2 lab)
    (lies-in blood3 lab)
    (lies-in blood4 lab)
    (lies-in swab1 ward)
    (empty left)
    (empty right)
  )
  (:goal (and
    (lies-in blood1 ward)
    (lies-in blood2 ward)
    (lies-in blood3 ward)
    (lies-in blood4 ward)
    (lies-in swab1 lab)
  ))
)
