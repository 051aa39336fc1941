"""Sharing from the page: a file uploaded by the button or by a drop, with its progress and a Cancel, and its Share
dialog (link, code, expiry). Loaded by test_web_page, whose browser and page helpers it uses."""
import json
import os
import tempfile
import time
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from servers import Shared
from test_web_page import BrowserTests, axe_violations


class UploadTests(BrowserTests):
    """A server with nothing yet: files shared from the page become shares a recipient opens."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), [])
        cls.scratch = tempfile.mkdtemp(prefix="share-uploads-")

    def setUp(self):
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                                    {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        self.page.open()

    def file(self, name, size):
        path = os.path.join(self.scratch, name)
        with open(path, "wb") as file:
            file.write(os.urandom(size))
        return path

    def choose(self, path):
        field = self.driver.find_element(By.ID, "upload-input")
        self.driver.execute_script("arguments[0].hidden = false", field)
        field.send_keys(path)

    def record(self, name):
        status, _, body = self.shared.request("GET", "/share?" + urllib.parse.urlencode({"q": name}))
        found = [record for record in json.loads(body) if record["name"] == name]
        return found[0] if found else None

    def dialog_open(self):
        return self.driver.find_element(By.ID, "share").get_attribute("open") is not None

    def test_a_chosen_file_uploads_into_a_share_whose_dialog_gives_its_link_code_and_expiry(self):
        path = self.file("Q4 report.pdf", 3_000_000)
        self.choose(path)
        self.page.wait(self.dialog_open, 30, "the Share dialog after the upload")
        link = self.driver.find_element(By.ID, "share-link").get_attribute("value")
        self.assertTrue(link.startswith(self.shared.url + "/s/"), link)
        with urllib.request.urlopen(link + "/file", timeout=30) as response, open(path, "rb") as original:
            self.assertEqual(response.read(), original.read(), "the link gives a recipient the very bytes")
        self.page.wait(lambda: "Q4 report.pdf" in self.page.names(), message="the new share in the list")
        self.page.wait(lambda: "3.0 MB of files kept" in self.driver.find_element(By.ID, "storage-text").text,
                       message="the storage line says what the files take")

        self.driver.find_element(By.ID, "share-use-code").click()
        self.page.wait(lambda: len(self.driver.find_element(By.ID, "share-code").text) >= 4, message="a drawn code")
        code = self.driver.find_element(By.ID, "share-code").text
        self.assertEqual(self.record("Q4 report.pdf")["code"], code, "the code is the share's")
        Select(self.driver.find_element(By.ID, "share-expiry")).select_by_value("7")
        self.page.wait(lambda: (self.record("Q4 report.pdf") or {}).get("expiresAt"), message="the expiry saved")
        expires = time.mktime(time.strptime(self.record("Q4 report.pdf")["expiresAt"][:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone
        self.assertAlmostEqual(expires, time.time() + 7 * 86400, delta=3600)
        self.page.wait(lambda: "expires in 7 days" in self.driver.find_element(By.ID, "share-state").text
                       or "expires in 6 days" in self.driver.find_element(By.ID, "share-state").text)
        self.assertEqual(axe_violations(self.driver), [])
        self.driver.find_element(By.CSS_SELECTOR, "#share button.close").click()
        self.page.wait(lambda: not self.dialog_open())
        self.assertEqual(self.page.active().get_attribute("class"), "upload-share", "focus returns to the upload's Share button")

        self.shared.request("DELETE", "/share/" + self.record("Q4 report.pdf")["id"])
        self.page.open()
        self.page.wait(lambda: "3.0 MB of files in the trash" in self.driver.find_element(By.ID, "storage-text").text,
                       message="a trashed file still counts until it is purged, and the storage line says so")

    def test_a_dropped_file_becomes_a_share_in_the_folder_shown(self):
        self.page.open("?folder=%2Fdrops")
        self.driver.execute_script("""
            const data = new DataTransfer();
            data.items.add(new File(["hello, dropped"], "dropped note.txt", { type: "text/plain" }));
            for (const type of ["dragover", "drop"]) document.body.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));""")
        self.page.wait(self.dialog_open, 30, "the Share dialog after the drop")
        record = self.record("dropped note.txt")
        self.assertEqual((record["folder"], record["size"], record["stored"]), ("/drops", 14, True))

    def test_cancel_stops_an_upload_and_the_server_keeps_nothing_of_it(self):
        # A slow connection, so that the upload is still going when Cancel is pressed.
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                                    {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": 200_000})
        self.choose(self.file("big video.mp4", 8_000_000))
        state = lambda: self.driver.find_element(By.CSS_SELECTOR, "#upload-list .upload-state").text
        self.page.wait(lambda: " of 8.0 MB" in state() and not state().startswith("0 B"), 30, "the upload under way")
        self.driver.find_element(By.CSS_SELECTOR, "#upload-list .upload-cancel").click()
        self.page.wait(lambda: self.driver.find_element(By.ID, "uploads").get_attribute("hidden") is not None,
                       message="the cancelled upload leaves the list")
        uploads = os.path.join(self.shared.folder, "share.db.files", "uploads")
        self.page.wait(lambda: os.listdir(uploads) == [], 10, "the server dropped the upload's bytes")
        self.assertIsNone(self.record("big video.mp4"), "nothing of a cancelled upload is shared")

