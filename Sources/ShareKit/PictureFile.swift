/// Files whose pictures a thumbnail is made from, by their name's extension, with the media type they are sent as.
public enum PictureFile {
    /// The media type of a picture file a thumbnail can be made from; nil for any other file (an SVG among them).
    public static func mediaType(ofFileName name: String) -> String? {
        FileName.fileExtension(of: name).flatMap { mediaTypes[$0] }
    }

    private static let mediaTypes = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif",
        "bmp": "image/bmp", "heic": "image/heic", "heif": "image/heif",
    ]
}
