"""Where `meson install` puts the ntidx package: the site directory of this Python under the install prefix.

Meson asks sysconfig, which on Debian answers a folder Debian's python3 does not search
(/usr/local/lib/python3/dist-packages; mesonbuild/meson#8739). The site directories Python searches are
the truth: the first under PREFIX/lib. Prints nothing when none is (then meson's own choice stands).

usage: python3 site_dir.py PREFIX
"""
import site
import sys

prefix = sys.argv[1].rstrip("/")
for d in site.getsitepackages():
    if d.startswith(prefix + "/lib/"):
        print(d)
        break
