# Options only 6.12's tree has, merged after Kbuild.frag on KVER=6.12
# (ours and stock alike).  Permission overlays (FEAT_S1POE): the POE
# signal record and POR_EL0 around frames (signal.c) build and are checked
# against stock 6.12; QEMU 7.2 has no S1POE, so they do not run here.
CONFIG_ARM64_POE=y
