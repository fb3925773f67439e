"""Presentation: what people read (notebook HTML, plain sentences), made from analysis results."""
