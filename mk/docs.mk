# mk/docs.mk - the reference manual (issue 15).
#
#   make docs   HTML reference of the public headers (include/fj*.h, *.hpp),
#               Doxygen with warnings as errors (docs/Doxyfile), in
#               build/docs/html/index.html.  It fails when anything public is
#               undocumented, and when a function the C headers declare is
#               missing from the reference (private fj__ names aside), or
#               namespace fj (both happen silently when a header lacks its
#               `/** @file */` comment or namespace fj its own).

.PHONY: docs

DOCS_DIR := build/docs

docs:
	@command -v doxygen >/dev/null 2>&1 || \
	  { echo "make docs needs doxygen: sh tools/install-deps.sh --tests (Debian: apt-get install doxygen)"; exit 1; }
	@rm -rf $(DOCS_DIR) && mkdir -p $(DOCS_DIR)
	FJ_VERSION=$(VERSION) doxygen docs/Doxyfile
	@missing=$$(grep -ho '^[a-z][a-z_ 0-9]*[ *]fj_[a-z0-9][a-z0-9_]*(' include/fj*.h | \
	    sed 's/.*[ *]\(fj_[a-z0-9][a-z0-9_]*\)(/\1/' | sort -u | \
	    while read -r f; do grep -q "<li>$$f()&#160;" $(DOCS_DIR)/html/globals_func*.html 2>/dev/null || echo $$f; done); \
	  if [ -n "$$missing" ]; then echo "make docs: declared but not in the reference:" $$missing; exit 1; fi
	@if ls include/*.hpp >/dev/null 2>&1 && [ ! -f $(DOCS_DIR)/html/namespacefj.html ]; then \
	  echo "make docs: namespace fj is not in the reference: give it a /** ... */ comment"; exit 1; fi
	@echo "reference: $(DOCS_DIR)/html/index.html"
