(define (problem porter-4)
  (:domain porter)
  (:objects
    lab hall ward - room
    blood1 blood2 blood3 blood4 - parcel
    left right - basket
  )
  (:init
    (corridor lab hall)
    (corridor hall lab)
    (corridor hall ward)
    (corridor ward hall)
    (robot-in lab)
    (lies-in blood1 lab)
    (lies-in blood2 lab)
    (lies-in blood3 lab)
    (lies-in blood4 lab)
    (empty left)
    (empty right)
  )
  (:goal (and
    (lies-in blood1 ward)
    (lies-in blood2 ward)
    (lies-in blood3 ward)
    (lies-in blood4 ward)
  ))
)
