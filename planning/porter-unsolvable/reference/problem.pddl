(define (problem porter-unsolvable)
  (:domain porter)
  (:objects
    lab ward annex - room
    blood1 tissue1 - parcel
    left right - basket
  )
  (:init
    (corridor lab ward)
    (corridor ward lab)
    (robot-in lab)
    (lies-in blood1 lab)
    (lies-in tissue1 lab)
    (empty left)
    (empty right)
  )
  (:goal (and
    (lies-in blood1 ward)
    (lies-in tissue1 annex)
  ))
)
