"""A link opened on a phone shows its file before it is saved: a picture across the screen, a text's beginning as
text, a video in a player; a file that cannot be pictured shows no broken image."""
import json
import os
import tempfile
import urllib.parse

from selenium.webdriver.common.by import By

from servers import ROOT, Shared
from webpage import SCREENSHOTS, BrowserTests, axe_violations, emulate


class PreviewTests(BrowserTests):
    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), [])
        cls.scratch = tempfile.mkdtemp(prefix="share-previews-")

    def tearDown(self):
        emulate(self.driver, None)

    def shared_file(self, name, content):
        path = os.path.join(self.scratch, name)
        with open(path, "wb") as file:
            file.write(content)
        record = self.shared.add_file(path, "--no-thumbnail")
        return urllib.parse.urljoin(self.shared.url + "/", record["link"])

    def test_on_a_phone_a_picture_fills_the_width_and_the_page_stays_checked(self):
        with open(os.path.join(ROOT, "Tests", "Fixtures", "pictures", "photo.jpg"), "rb") as photo:
            link = self.shared_file("beach.jpg", photo.read())
        os.makedirs(SCREENSHOTS, exist_ok=True)
        for name, width, height in (("phone", 390, 844), ("desktop", 1366, 768)):
            emulate(self.driver, width, height, touch=width < 600)
            self.driver.get(link)
            picture = lambda: self.driver.find_element(By.CSS_SELECTOR, "img.preview")
            self.page.wait(lambda: self.driver.execute_script("return arguments[0].naturalWidth", picture()) == 240,
                           message="the photo's preview, upright (240 × 320)")
            room = self.driver.execute_script(
                "const main = document.querySelector('main'); const style = getComputedStyle(main);"
                "return main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)")
            self.assertAlmostEqual(picture().size["width"], room, delta=1, msg="the preview fills the page's width")
            self.assertEqual(axe_violations(self.driver), [])
            self.assertFalse(self.driver.execute_script("return document.documentElement.scrollWidth > innerWidth"), "no sideways scrolling")
            self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"recipient-preview-{name}.png"))

    def test_a_text_is_text_and_a_video_has_a_player(self):
        emulate(self.driver, 390, 844, touch=True)
        self.driver.get(self.shared_file("notes.txt", "<b>not bold</b>\nsecond line".encode()))
        shown = self.driver.find_element(By.CSS_SELECTOR, "pre.text")
        self.assertEqual(shown.text, "<b>not bold</b>\nsecond line")
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "main b"), [], "markup in a text stays text")
        self.assertEqual(axe_violations(self.driver), [])
        self.driver.get(self.shared_file("clip.mp4", os.urandom(50_000)))
        player = self.driver.find_element(By.CSS_SELECTOR, "video.preview")
        self.assertTrue(player.get_attribute("src").endswith("/media"))
        self.assertEqual(axe_violations(self.driver), [])

    def test_a_file_that_cannot_be_pictured_shows_no_broken_image(self):
        self.driver.get(self.shared_file("scan.pdf", b"%PDF-1.4 and nothing a reader could draw"))
        self.page.wait(lambda: not self.driver.find_elements(By.CSS_SELECTOR, "img.preview"), message="the preview taken away")
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "h2").text, "scan.pdf")


class OwnerPreviewTests(BrowserTests):
    """The owner sees a stored picture or text from its row's menu, without downloading it."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), [])
        cls.scratch = tempfile.mkdtemp(prefix="share-owner-previews-")

    def shared_file(self, name, content):
        path = os.path.join(self.scratch, name)
        with open(path, "wb") as file:
            file.write(content)
        return self.shared.add_file(path, "--no-thumbnail")

    def test_a_rows_menu_previews_a_picture_and_a_text(self):
        with open(os.path.join(ROOT, "Tests", "Fixtures", "pictures", "picture.webp"), "rb") as picture:
            pictured = self.shared_file("poster.webp", picture.read())
        noted = self.shared_file("notes.md", ("# Notes\n" + "x" * 70_000).encode())
        self.page.open()
        self.page.open_menu(pictured["id"])
        self.page.choose("Preview")
        image = lambda: self.driver.find_element(By.CSS_SELECTOR, "#preview img")
        self.page.wait(lambda: self.driver.execute_script("return arguments[0].naturalWidth", image()) == 400, message="the picture")
        self.assertEqual(image().get_attribute("alt"), "A preview of poster.webp")
        self.assertEqual(axe_violations(self.driver), [])
        self.driver.find_element(By.CSS_SELECTOR, "#preview button.close").click()
        self.assertEqual(self.page.active().get_attribute("aria-label"), "Actions for poster.webp", "the keyboard back on its row")

        self.page.open_menu(noted["id"])
        self.page.choose("Preview")
        self.page.wait(lambda: self.driver.find_element(By.CSS_SELECTOR, "#preview pre").text.startswith("# Notes"), message="the text")
        self.assertIn("The first 65.5 kB of 70.0 kB.", self.driver.find_element(By.ID, "preview-body").text)
        listed = json.loads(self.shared.request("GET", "/share/" + noted["id"])[2])
        self.assertEqual(listed["downloads"], 0, "the owner's look is no download")
