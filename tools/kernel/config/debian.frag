# BASECONFIG=debian: merged over Debian's own arm64 config (linux-config-KVER)
# before Kbuild.frag.  Debian signs with keys it does not ship and builds
# BTF with pahole; neither is part of the kernel we test, and modules are
# not built.
CONFIG_SYSTEM_TRUSTED_KEYS=""
CONFIG_MODULE_SIG_KEY="certs/signing_key.pem"
# CONFIG_DEBUG_INFO_BTF is not set
