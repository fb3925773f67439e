"""Presentation: what people read, made from stored or computed results.

The static site of the catalogue (its pages and pictures), text formats of
values, the notebook's HTML, and plain sentences that read the analyses'
numbers.  Nothing here computes a sequence or a reading: the site reads what
the catalogue stored, and the formats write out values they are given.
"""
