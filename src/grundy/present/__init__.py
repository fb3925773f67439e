"""Presentation: the static site of the catalogue, its pages and pictures, and text formats of values.

Nothing here computes a sequence or a reading: the site reads what the
catalogue stored, and the formats write out values they are given.
"""
