"""The formats trajtui reads, one package each; :mod:`trajtui.formats.registry` lists them."""
