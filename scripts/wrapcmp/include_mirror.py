"""The tree's folders as spatch's typed pass sees them on its include path.

spatch must never see a name of the tree on its command line: it hands each -I folder to
a shell (find DIR -name "*h"), so a folder named by the tree could run a command.  Each
-I folder is therefore a symbolic link with a generated name.  But spatch resolves
#include "../x.h" by spelling: DIR/../x.h becomes the folder that holds DIR, not the
parent of the folder DIR points to.  So the link lives in a mirror of its parent: a real
folder holding, under their own names, links to everything in the tree's parent folder,
itself in a mirror of the grandparent, and so on up to the tree's top.  DIR/.., DIR/../..
then hold what the tree's folders hold, and `find DIR` still lists nothing (find does not
follow a link it is given), as with a bare link.  Names of the tree reach only the file
system, never a shell.
"""
import os


class IncludeMirror:
    def __init__(self, tree, top):
        """Mirror folders and links go in top, a new folder of the scratch space."""
        self.tree, self.top = os.path.abspath(tree), top
        self.mirrors, self.links = {}, {}
        os.makedirs(top, exist_ok=True)

    def _fresh(self, folder):
        """A name that nothing in folder has (the tree's own names are there too)."""
        n = len(os.listdir(folder))
        while os.path.lexists(os.path.join(folder, "wrapcmp-%d" % n)):
            n += 1
        return "wrapcmp-%d" % n

    def _mirror(self, rel):
        """The real folder that holds links to every entry of the tree's folder rel."""
        if rel not in self.mirrors:
            if rel:
                up = self._mirror(os.path.dirname(rel))
                path = os.path.join(up, self._fresh(up))
            else:
                path = os.path.join(self.top, "m")
            os.mkdir(path)
            try:	# a folder that cannot be listed mirrors as empty: "../x.h" fails there
                names = sorted(os.listdir(os.path.join(self.tree, rel)))
            except OSError:
                names = []
            for name in names:
                os.symlink(os.path.join(self.tree, rel, name), os.path.join(path, name))
            self.mirrors[rel] = path
        return self.mirrors[rel]

    def folder(self, rel):
        """A path of generated names that stands for the tree's folder rel ("" the top),
        for -I: a link to it in the mirror of its parent."""
        if rel not in self.links:
            up = self._mirror(os.path.dirname(rel)) if rel else self.top
            path = os.path.join(up, self._fresh(up))
            os.symlink(os.path.join(self.tree, rel), path)
            self.links[rel] = path
        return self.links[rel]

    def path(self, full):
        """A path of generated names for any folder or file, as a compile command names
        it: one of the tree's as folder() gives it (a file as a link in the mirror of its
        folder, so that its own #include "x.h" still finds its neighbours), one outside
        the tree as a bare link."""
        full = os.path.normpath(os.path.abspath(full))
        real = os.path.realpath(full)
        for top in (self.tree, os.path.realpath(self.tree)):
            if real == top or real.startswith(top.rstrip("/") + "/"):
                rel = os.path.relpath(real, top)
                rel = "" if rel == "." else rel
                if os.path.isdir(real):
                    return self.folder(rel)
                if rel not in self.links:
                    up = self._mirror(os.path.dirname(rel))
                    link = os.path.join(up, self._fresh(up))
                    os.symlink(real, link)
                    self.links[rel] = link
                return self.links[rel]
        if full not in self.links:
            ext = os.path.join(self.top, "ext")
            os.makedirs(ext, exist_ok=True)
            link = os.path.join(ext, self._fresh(ext))
            os.symlink(full, link)
            self.links[full] = link
        return self.links[full]
