#ifndef SHARE_CVIPS_SHIM_H
#define SHARE_CVIPS_SHIM_H

#include <vips/vips.h>

// libvips' calls take their options as variadic arguments, which Swift cannot call: one wrapper for each use.

static void share_vips_ignore_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer context) {}

/// Starts libvips for thumbnails and previews: no operation cache (each picture is seen once), no run-time generated
/// code (the systemd unit forbids memory both writable and executable), its warnings silenced (a failure is an error,
/// which is reported), and every loader blocked but those of the formats pictures are made from. ImageMagick's loader
/// is left for BMP, which the caller lets through only for a file that begins as a BMP, and poppler's for a PDF's
/// first page, only for a file that begins as a PDF. Returns 0 on success.
static inline int share_vips_start(void) {
    if (vips_init("shared") != 0) return -1;
    vips_cache_set_max(0);
    vips_vector_set_enabled(FALSE);
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, share_vips_ignore_log, NULL);
    vips_operation_block_set("VipsForeignLoad", TRUE);
    const char *allowed[] = {
        "VipsForeignLoadJpeg", "VipsForeignLoadPng", "VipsForeignLoadWebp", "VipsForeignLoadNsgif",
        "VipsForeignLoadHeif", "VipsForeignLoadMagick", "VipsForeignLoadPdf",
    };
    for (size_t index = 0; index < sizeof allowed / sizeof *allowed; index++) vips_operation_block_set(allowed[index], FALSE);
    return 0;
}

/// Reads the picture's header only: its width and height. Returns 0 on success.
static inline int share_vips_dimensions(const void *bytes, size_t length, int *width, int *height) {
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", NULL);
    if (image == NULL) return -1;
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    g_object_unref(image);
    return 0;
}

/// A thumbnail of the picture, at most `box` pixels wide and high (enlarged only when `enlarge`, as a page drawn
/// from vectors is; turned upright as its EXIF says), as WebP without metadata, in `*output` (freed with g_free). A
/// picture whose data breaks off or is damaged is an error, not a partial thumbnail: `loader_options` says how
/// strictly (`fail_on=…`). Returns 0 on success.
static inline int share_vips_thumbnail_webp(const void *bytes, size_t length, int box, int enlarge, int quality, const char *loader_options,
                                            void **output, size_t *output_length) {
    VipsImage *thumbnail = NULL;
    if (vips_thumbnail_buffer((void *)bytes, length, &thumbnail, box, "height", box, "size", enlarge ? VIPS_SIZE_BOTH : VIPS_SIZE_DOWN,
                              "option_string", loader_options, NULL) != 0) return -1;
    int status = vips_webpsave_buffer(thumbnail, output, output_length, "strip", TRUE, "Q", quality, NULL);
    g_object_unref(thumbnail);
    return status;
}

#endif
