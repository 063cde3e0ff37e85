# mk/install.mk - installing fj for other programs to use (issue 15).
#
#   make install [PREFIX=/usr/local] [LIBDIR=PREFIX/lib] [DESTDIR=]
#       LIBDIR             libfj.a, libfj.so.$(VERSION), its SONAME link
#                          $(SONAME) and libfj.so; an earlier install's
#                          libfj.so.$(VERSION_MAJOR).* of another version,
#                          which the links no longer name, is removed
#       PREFIX/include     fj.h, fj_java.h and every other public header
#       LIBDIR/pkgconfig/fj.pc
#       LIBDIR/cmake/fj/fjConfig.cmake, fjConfigVersion.cmake (fj::fj)
#       PREFIX/bin/fj_timeline, PREFIX/share/man/man1/fj_timeline.1
#     PREFIX and LIBDIR must be absolute (fj.pc and the CMake package record
#     them) and, as DESTDIR, free of spaces, which make cannot quote; make
#     refuses others before it writes anything.  LIBDIR is for a
#     multiarch layout (Debian: LIBDIR=/usr/lib/x86_64-linux-gnu).
#     DESTDIR is prepended to every path written and never recorded in a file,
#     as Debian packaging expects.
#   make uninstall [PREFIX=...] [LIBDIR=...] [DESTDIR=]
#       removes exactly those files, and LIBDIR/cmake/fj
#   make test-install
#       tests/install-check.sh: installs into a temporary prefix and builds
#       against it with CMake and with pkg-config (a run of `make test`)

.PHONY: install uninstall test-install

LIBDIR ?= $(PREFIX)/lib
INSTALL_ROOT = $(DESTDIR)$(PREFIX)
INSTALL_LIBDIR = $(DESTDIR)$(LIBDIR)
INSTALL_HEADERS := $(wildcard include/fj*.h include/*.hpp)
# Every file install writes: uninstall removes this list.
INSTALLED_FILES = $(addprefix $(INSTALL_LIBDIR)/,libfj.a libfj.so.$(VERSION) $(SONAME) libfj.so pkgconfig/fj.pc \
                      cmake/fj/fjConfig.cmake cmake/fj/fjConfigVersion.cmake) \
                  $(addprefix $(INSTALL_ROOT)/,$(addprefix include/,$(notdir $(INSTALL_HEADERS))) \
                      bin/fj_timeline share/man/man1/fj_timeline.1)

# Expands to nothing, or stops make naming the setting: a path that holds a
# space, or, for PREFIX and LIBDIR, which fj.pc and fjConfig.cmake record,
# one that is not absolute.  The first line of install and uninstall: make
# expands a recipe before it runs any of it, so nothing is written or removed.
install_path_refusal = $(if $(word 2,$($(1))),$(error $(1)='$($(1))': holds a space; make cannot install to such a path))$(if $(2),$(if $(filter /%,$($(1))),,$(error $(1)='$($(1))': not an absolute path (fj.pc and the CMake package record it))))
CHECK_INSTALL_PATHS = $(call install_path_refusal,PREFIX,absolute)$(call install_path_refusal,LIBDIR,absolute)$(call install_path_refusal,DESTDIR)

# The pointer size the library was built for: fjConfigVersion.cmake turns
# away a project built for another one.
SIZEOF_POINTER = $(shell $(CC) -dM -E -x c /dev/null | sed -n 's/^.define __SIZEOF_POINTER__ //p')
SUBSTITUTE = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
                 -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' -e 's|@SONAME@|$(SONAME)|g' \
                 -e 's|@SIZEOF_POINTER@|$(SIZEOF_POINTER)|g' \
                 -e "s|@INCLUDEDIR_FROM_LIBDIR@|$$(realpath -m --relative-to='$(LIBDIR)' '$(PREFIX)/include')|g"

install: lib $(BUILD)/tools/fj_timeline
	$(CHECK_INSTALL_PATHS)
	install -d '$(INSTALL_LIBDIR)/pkgconfig' '$(INSTALL_LIBDIR)/cmake/fj' '$(INSTALL_ROOT)/include' \
	  '$(INSTALL_ROOT)/bin' '$(INSTALL_ROOT)/share/man/man1'
	install -m 644 $(LIB_A) '$(INSTALL_LIBDIR)/'
	for old in '$(INSTALL_LIBDIR)'/libfj.so.$(VERSION_MAJOR).*; do \
	  [ "$$old" = '$(INSTALL_LIBDIR)/libfj.so.$(VERSION)' ] || rm -f "$$old"; done
	install -m 755 $(LIB_SO_FILE) '$(INSTALL_LIBDIR)/'
	ln -sf libfj.so.$(VERSION) '$(INSTALL_LIBDIR)/$(SONAME)'
	ln -sf $(SONAME) '$(INSTALL_LIBDIR)/libfj.so'
	install -m 644 $(INSTALL_HEADERS) '$(INSTALL_ROOT)/include/'
	$(SUBSTITUTE) fj.pc.in > '$(INSTALL_LIBDIR)/pkgconfig/fj.pc'
	$(SUBSTITUTE) cmake/fjConfig.cmake.in > '$(INSTALL_LIBDIR)/cmake/fj/fjConfig.cmake'
	$(SUBSTITUTE) cmake/fjConfigVersion.cmake.in > '$(INSTALL_LIBDIR)/cmake/fj/fjConfigVersion.cmake'
	install -m 755 $(BUILD)/tools/fj_timeline '$(INSTALL_ROOT)/bin/'
	install -m 644 tools/fj_timeline.1 '$(INSTALL_ROOT)/share/man/man1/'
	@echo "fj $(VERSION) installed in $(INSTALL_ROOT).  Programs find libfj.so at run time once"
	@echo "you run ldconfig (as root, where $(LIBDIR) is in /etc/ld.so.conf), link them with"
	@echo "-Wl,-rpath,$(LIBDIR), or set LD_LIBRARY_PATH=$(LIBDIR): see README.md, Installing."

uninstall:
	$(CHECK_INSTALL_PATHS)
	rm -f $(foreach f,$(INSTALLED_FILES),'$(f)')
	rmdir '$(INSTALL_LIBDIR)/cmake/fj' 2>/dev/null || true

# The check builds programs against an installed copy of this build; under
# the sanitizers those would need the sanitizer runtime too, so it runs in
# the release and debug variants only.
ifneq ($(filter release debug,$(VARIANT)),)
TEST_SCRIPTS += tests/install-check.sh
endif

test-install: lib tools
	@sh tests/install-check.sh $(BUILD)
