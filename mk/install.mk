# mk/install.mk - installing fj for other programs to use (issue 15).
#
#   make install [PREFIX=/usr/local] [DESTDIR=]
#       PREFIX/lib         libfj.a, libfj.so.$(VERSION), its SONAME link
#                          $(SONAME) and libfj.so
#       PREFIX/include     fj.h, fj_java.h and every other public header
#       PREFIX/lib/pkgconfig/fj.pc
#       PREFIX/lib/cmake/fj/fjConfig.cmake, fjConfigVersion.cmake (fj::fj)
#       PREFIX/bin/fj_timeline, PREFIX/share/man/man1/fj_timeline.1
#     DESTDIR is prepended to every path written and never recorded in a file,
#     as Debian packaging expects.
#   make uninstall [PREFIX=...] [DESTDIR=]
#       removes exactly those files, and lib/cmake/fj
#   make test-install
#       tests/install-check.sh: installs into a temporary prefix and builds
#       against it with CMake and with pkg-config (a run of `make test`)

.PHONY: install uninstall test-install

INSTALL_ROOT = $(DESTDIR)$(PREFIX)
INSTALL_HEADERS := $(wildcard include/fj*.h include/*.hpp)
# Every file install writes, relative to PREFIX: uninstall removes this list.
INSTALLED_FILES = lib/libfj.a lib/libfj.so.$(VERSION) lib/$(SONAME) lib/libfj.so \
                  $(addprefix include/,$(notdir $(INSTALL_HEADERS))) lib/pkgconfig/fj.pc \
                  lib/cmake/fj/fjConfig.cmake lib/cmake/fj/fjConfigVersion.cmake \
                  bin/fj_timeline share/man/man1/fj_timeline.1

# The pointer size the library was built for: fjConfigVersion.cmake turns
# away a project built for another one.
SIZEOF_POINTER = $(shell $(CC) -dM -E -x c /dev/null | sed -n 's/^.define __SIZEOF_POINTER__ //p')
SUBSTITUTE = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
                 -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' -e 's|@SONAME@|$(SONAME)|g' \
                 -e 's|@SIZEOF_POINTER@|$(SIZEOF_POINTER)|g'

install: lib $(BUILD)/tools/fj_timeline
	install -d $(INSTALL_ROOT)/lib/pkgconfig $(INSTALL_ROOT)/lib/cmake/fj $(INSTALL_ROOT)/include \
	  $(INSTALL_ROOT)/bin $(INSTALL_ROOT)/share/man/man1
	install -m 644 $(LIB_A) $(INSTALL_ROOT)/lib/
	install -m 755 $(LIB_SO_FILE) $(INSTALL_ROOT)/lib/
	ln -sf libfj.so.$(VERSION) $(INSTALL_ROOT)/lib/$(SONAME)
	ln -sf $(SONAME) $(INSTALL_ROOT)/lib/libfj.so
	install -m 644 $(INSTALL_HEADERS) $(INSTALL_ROOT)/include/
	$(SUBSTITUTE) fj.pc.in > $(INSTALL_ROOT)/lib/pkgconfig/fj.pc
	$(SUBSTITUTE) cmake/fjConfig.cmake.in > $(INSTALL_ROOT)/lib/cmake/fj/fjConfig.cmake
	$(SUBSTITUTE) cmake/fjConfigVersion.cmake.in > $(INSTALL_ROOT)/lib/cmake/fj/fjConfigVersion.cmake
	install -m 755 $(BUILD)/tools/fj_timeline $(INSTALL_ROOT)/bin/
	install -m 644 tools/fj_timeline.1 $(INSTALL_ROOT)/share/man/man1/
	@echo "fj $(VERSION) installed in $(INSTALL_ROOT).  Programs find libfj.so at run time once"
	@echo "you run ldconfig (as root, where $(PREFIX)/lib is in /etc/ld.so.conf), link them with"
	@echo "-Wl,-rpath,$(PREFIX)/lib, or set LD_LIBRARY_PATH=$(PREFIX)/lib: see README.md, Installing."

uninstall:
	rm -f $(addprefix $(INSTALL_ROOT)/,$(INSTALLED_FILES))
	rmdir $(INSTALL_ROOT)/lib/cmake/fj 2>/dev/null || true

# The check builds programs against an installed copy of this build; under
# the sanitizers those would need the sanitizer runtime too, so it runs in
# the release and debug variants only.
ifneq ($(filter release debug,$(VARIANT)),)
TEST_SCRIPTS += tests/install-check.sh
endif

test-install: lib tools
	@sh tests/install-check.sh $(BUILD)
