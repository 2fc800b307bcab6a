# FreeSFS top-level Makefile: the default wrapper is M.wrappers/M.linux.
# `make -f M.wrappers/M.clang` (or M.debug, M.fuzz) builds with another one.
include M.wrappers/M.linux
