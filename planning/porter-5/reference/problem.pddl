(define (problem porter-5)
  (:domain porter)
  (:objects
    lab hall ward theatre - room
    blood1 blood2 plasma1 plasma2 swab1 - parcel
    left right - basket
  )
  (:init
    (corridor lab hall)
    (corridor hall lab)
    (corridor hall ward)
    (corridor ward hall)
    (corridor hall theatre)
    (corridor theatre hall)
    (robot-in lab)
    (lies-in blood1 lab)
    (lies-in blood2 lab)
    (lies-in plasma1 lab)
    (lies-in plasma2 lab)
    (lies-in swab1 ward)
    (empty left)
    (empty right)
  )
  (:goal (and
    (lies-in blood1 ward)
    (lies-in blood2 ward)
    (lies-in plasma1 theatre)
    (lies-in plasma2 theatre)
    (lies-in swab1 lab)
  ))
)
