"""Sharing from the page: a file uploaded by the button or by a drop, with its progress and a Cancel, its Share
dialog (link, code, expiry, sender and message), each row's link state, and the recipient's page."""
import io
import json
import os
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from servers import Shared
from webpage import SCREENSHOTS, BrowserTests, axe_violations, emulate, history


class UploadPage:
    """What the upload tests do on the page: make a file, choose it, find its record. Each test starts on a fast
    network, on a fresh page."""

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


class UploadTests(UploadPage, BrowserTests):
    """A server with nothing yet: files shared from the page become shares a recipient opens."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), [])
        cls.scratch = tempfile.mkdtemp(prefix="share-uploads-")

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

    def test_files_dropped_together_become_one_share_whose_link_lists_them_and_zips_them(self):
        self.page.open("?folder=%2Fcontract")
        self.driver.execute_script("""
            const data = new DataTransfer();
            data.items.add(new File(["the contract"], "contract.txt", { type: "text/plain" }));
            data.items.add(new File(["annex one"], "annex é.txt", { type: "text/plain" }));
            for (const type of ["dragover", "drop"]) document.body.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));""")
        self.page.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, ".upload-choice"), message="the question: one link or each its own")
        self.assertEqual(self.page.active().text, "One link", "the choice has the keyboard")
        self.assertEqual(axe_violations(self.driver), [])
        self.page.active().click()
        self.page.wait(self.dialog_open, 30, "the Share dialog after the upload")
        record = self.record("2 files.zip")
        self.assertEqual((record["folder"], record["size"], [file["name"] for file in record["files"]]),
                         ("/contract", 21, ["contract.txt", "annex é.txt"]))
        self.page.wait(lambda: self.page.row(record["id"]).find_elements(By.CSS_SELECTOR, ".meta .files"), message="its row")
        self.assertEqual(self.page.row(record["id"]).find_element(By.CSS_SELECTOR, ".meta .files").text, "2 files")
        link = self.driver.find_element(By.ID, "share-link").get_attribute("value")
        with urllib.request.urlopen(link, timeout=30) as response:
            page = response.read().decode()
        self.assertIn("2 files were shared with you", page)
        self.assertIn("annex é.txt</a>", page)
        with urllib.request.urlopen(link + "/files/1", timeout=30) as response:
            self.assertEqual(response.read(), "annex one".encode())
        with urllib.request.urlopen(link + "/zip", timeout=30) as response:
            archive = zipfile.ZipFile(io.BytesIO(response.read()))
        self.assertEqual([(entry.filename, archive.read(entry)) for entry in archive.infolist()],
                         [("contract.txt", b"the contract"), ("annex é.txt", b"annex one")])
        self.driver.find_element(By.CSS_SELECTOR, "#share button.close").click()
        # The recipient's side, on a phone and a desktop: each file a link, the ZIP a button, nothing for axe.
        os.makedirs(SCREENSHOTS, exist_ok=True)
        try:
            for name, width, height in [("phone", 390, 844), ("desktop", 1366, 900)]:
                emulate(self.driver, width, height, touch=width < 600)
                self.driver.get(link)
                self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, ".files a[download]")), 2)
                button = self.driver.find_element(By.CSS_SELECTOR, "a.button[download]")
                self.assertEqual(button.text, "Download all (ZIP)")
                self.assertLessEqual(button.rect["y"] + button.rect["height"], height, "the button on the first screen")
                self.assertEqual(axe_violations(self.driver), [])
                self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"recipient-files-{name}.png"))
        finally:
            emulate(self.driver, None)

    def test_files_chosen_together_may_still_each_get_their_own_link(self):
        first, second = self.file("one each A.bin", 1000), self.file("one each B.bin", 2000)
        field = self.driver.find_element(By.ID, "upload-input")
        self.driver.execute_script("arguments[0].hidden = false", field)
        field.send_keys(first + "\n" + second)
        self.page.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, ".upload-choice"), message="the question")
        self.driver.find_element(By.XPATH, "//li[contains(@class,'upload-choice')]//button[text()='A link each']").click()
        self.page.wait(lambda: self.record("one each A.bin") and self.record("one each B.bin"), 30, "two shares")
        self.assertNotIn("files", self.record("one each B.bin"))
        self.page.wait(self.dialog_open, 30, "the Share dialog of the last one")
        self.driver.find_element(By.CSS_SELECTOR, "#share button.close").click()

    def test_a_photo_shared_from_the_page_gets_its_thumbnail_as_with_share_add(self):
        photo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "pictures", "photo.jpg")
        self.choose(os.path.abspath(photo))
        self.page.wait(self.dialog_open, 30, "the Share dialog after the upload")
        record = self.record("photo.jpg")
        self.assertTrue(record.get("thumbnail"), "the server made the photo's thumbnail")
        self.page.wait(lambda: self.page.row(record["id"]).find_elements(By.CSS_SELECTOR, ".picture img"),
                       message="the thumbnail in the photo's row")

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


class BrokenUploadTests(UploadPage, BrowserTests):
    """Uploads from the page meet what phones meet: a server that goes away mid-upload, a reload, leaving the page.
    None of them loses what was sent."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(server="shutdown_seconds = 1\n"), [])
        cls.scratch = tempfile.mkdtemp(prefix="share-uploads-")

    def slow(self, bytes_per_second):
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                                    {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": bytes_per_second})

    def state(self):
        return self.driver.find_element(By.CSS_SELECTOR, "#upload-list .upload-state").text

    def under_way(self):
        return "%" in self.state() and " 0%" not in self.state()

    def same_bytes(self, name, path):
        link = urllib.parse.urljoin(self.shared.url + "/", self.record(name)["link"])
        with urllib.request.urlopen(link + "/file", timeout=30) as response, open(path, "rb") as original:
            return response.read() == original.read()

    def test_an_upload_waits_out_a_stopped_server_and_resumes_where_it_was(self):
        self.slow(1_000_000)
        path = self.file("holiday.mov", 6_000_000)
        self.choose(path)
        self.page.wait(lambda: " s left" in self.state(), 30, "the upload under way, its rate known")
        self.assertRegex(self.state(), r"B of 6\.0 MB · \d+% · [\d.]+ [kM]B/s · \d+ s left", "how far, how fast, how long")
        self.shared.pause()
        try:
            self.page.wait(lambda: "trying again in" in self.state(), 30, "the upload waiting for the server")
        finally:
            self.shared.resume()
        self.slow(-1)
        self.page.wait(lambda: self.state() == "Shared", 90, "the upload finished once the server came back")
        self.assertTrue(self.same_bytes("holiday.mov", path), "the share holds the very bytes, none twice")

    def test_a_reload_mid_upload_asks_first_and_picking_the_file_again_resumes_it(self):
        self.slow(500_000)
        path = self.file("scan.pdf", 4_000_000)
        self.choose(path)
        self.page.wait(self.under_way, 30, "the upload under way")
        leaving = self.driver.execute_script(
            "const event = new Event('beforeunload', { cancelable: true }); dispatchEvent(event); return event.defaultPrevented")
        self.assertTrue(leaving, "leaving the page while bytes are in flight asks first")
        self.page.wait(lambda: float(self.state().split(" MB of")[0]) >= 1.0 if " MB of" in self.state() else False, 30, "a megabyte sent")
        self.driver.execute_script("window.onbeforeunload = null")
        self.driver.execute_cdp_cmd("Page.navigate", {"url": self.driver.current_url})
        self.page.wait(lambda: self.driver.find_elements(By.ID, "upload-input"), 30, "the page again")
        self.slow(-1)
        self.choose(path)
        self.page.wait(lambda: self.state() == "Shared" or "Resumed from" in self.state(), 30, "the upload picked up again")
        self.page.wait(lambda: self.state() == "Shared", 30, "the upload finished")
        self.assertTrue(self.same_bytes("scan.pdf", path))
        self.assertEqual(self.driver.execute_script("return Object.keys(localStorage).filter((key) => key.startsWith('share-upload'))"),
                         [], "a finished upload's address is forgotten")


class LinkDialogTests(BrowserTests):
    """The owner's side of a link, on the page alone: stop sharing (and undo it), a download limit that closes the
    link and says so, lifted where it is said, who downloaded, and who the recipient is told sent it, with what message."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), [])

    def shared_file(self, name):
        scratch = tempfile.mkdtemp(prefix="share-link-")
        path = os.path.join(scratch, name)
        with open(path, "wb") as file:
            file.write(os.urandom(50_000))
        self.page.open()
        field = self.driver.find_element(By.ID, "upload-input")
        self.driver.execute_script("arguments[0].hidden = false", field)
        field.send_keys(path)
        self.page.wait(lambda: self.driver.find_element(By.ID, "share").get_attribute("open") is not None, 30, "the Share dialog")
        status, _, body = self.shared.request("GET", "/share?" + urllib.parse.urlencode({"q": name}))
        return json.loads(body)[0]

    def state(self):
        return self.driver.find_element(By.ID, "share-state").text

    def opens(self, record):
        """The link's answer to a recipient who takes the whole file (one who hangs up early gives the download back)."""
        try:
            with urllib.request.urlopen(urllib.parse.urljoin(self.shared.url + "/", record["link"]) + "/file", timeout=30) as response:
                response.read()
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    def test_stop_sharing_closes_the_link_at_once_and_undo_opens_it_again(self):
        record = self.shared_file("contract.pdf")
        self.assertEqual(axe_violations(self.driver), [])
        os.makedirs(SCREENSHOTS, exist_ok=True)
        for name, width, height in (("desktop", 1366, 768), ("phone", 390, 844)):
            emulate(self.driver, width, height)
            overflow = self.driver.execute_script("return document.getElementById('share').scrollWidth > innerWidth")
            self.assertFalse(overflow, f"the dialog fits {width} px")
            self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"share-dialog-{name}.png"))
        emulate(self.driver, None)
        self.driver.find_element(By.ID, "share-stop").click()
        self.page.wait(lambda: self.driver.find_element(By.ID, "toast-text").text == "Stopped sharing contract.pdf")
        self.assertEqual(self.opens(record), 410, "the link is closed at once")
        self.driver.find_element(By.ID, "toast-undo").click()
        self.page.wait(lambda: self.driver.find_element(By.ID, "toast-text").text == "Sharing contract.pdf again")
        self.assertEqual(self.opens(record), 200, "the same link opens again")

    def test_a_download_limit_closes_the_link_says_why_and_raising_it_opens_it(self):
        record = self.shared_file("slides.pdf")
        limit = self.driver.find_element(By.ID, "share-max-downloads")
        limit.send_keys("1", Keys.TAB)
        self.page.wait(lambda: "0 of 1 download" in self.state(), message="the limit saved")
        self.assertEqual(self.opens(record), 200)
        self.assertEqual(self.opens(record), 410, "its one download used")
        self.driver.find_element(By.CSS_SELECTOR, "#share button.close").click()
        self.page.open()
        self.page.open_menu(record["id"])
        self.page.choose("Share…")
        self.page.wait(lambda: self.state() == "Closed: its one download used", message="which limit closed it")
        downloads = self.driver.find_element(By.ID, "share-downloads").text
        self.assertIn("127.0.0.0/24 · other · whole", downloads, "who downloaded, from where, with what, whole or not")
        limit = self.driver.find_element(By.ID, "share-max-downloads")
        limit.clear()
        limit.send_keys("2", Keys.TAB)
        self.page.wait(lambda: "1 of 2 downloads" in self.state(), message="the limit raised")
        self.assertEqual(self.opens(record), 200, "the link opens again")
        self.assertEqual(axe_violations(self.driver), [])
        self.driver.find_element(By.CSS_SELECTOR, "#share button.close").click()
        # The link opened above is an event too: the row may be drawn anew once more, the focus going with it.
        menu = lambda: self.page.row(record["id"]).find_element(By.CSS_SELECTOR, ".menu-button")
        self.page.wait(lambda: self.page.active() == menu(), message="focus goes back to the share's row, drawn anew by the change")

    def test_the_owner_names_themself_and_writes_a_message_that_greet_the_recipient(self):
        record = self.shared_file("minutes.pdf")
        self.driver.find_element(By.ID, "share-sender").send_keys("Zoé Martin", Keys.TAB)
        self.page.wait(lambda: "from Zoé Martin" in self.driver.find_element(By.ID, "share-copied").text, message="the name saved")
        self.driver.find_element(By.ID, "share-message").send_keys("Minutes of Monday,", Keys.ENTER, "as agreed.", Keys.TAB)
        self.page.wait(lambda: self.driver.find_element(By.ID, "share-copied").text == "Message saved")
        # Set and changed at once: a clear() alone would save no sender first.
        self.driver.execute_script("""const field = document.getElementById("share-sender"); field.value = arguments[0];
            field.dispatchEvent(new Event("change"));""", "Your bank\u202e")
        self.page.wait(lambda: "sender" in self.driver.find_element(By.ID, "share-error").text, message="a refused name says why")
        self.assertEqual(self.driver.execute_script("return localStorage.getItem('share-sender')"), "Zoé Martin",
                         "a name the server refused is not kept for the next uploads")
        self.assertEqual(axe_violations(self.driver), [])
        with urllib.request.urlopen(urllib.parse.urljoin(self.shared.url + "/", record["link"]), timeout=30) as response:
            page = response.read().decode()
        self.assertIn("Zoé Martin shared a file with you", page)
        self.assertIn("Minutes of Monday,\nas agreed.", page, "the message with its line break")
        self.driver.find_element(By.CSS_SELECTOR, "#share button.close").click()
        self.addCleanup(self.driver.execute_script, "localStorage.removeItem('share-sender')")
        later = self.shared_file("agenda.pdf")
        self.assertEqual(later.get("sender"), "Zoé Martin", "the page's next upload names the sender it was last given")
        self.assertEqual(self.driver.find_element(By.ID, "share-sender").get_attribute("value"), "Zoé Martin")
        self.assertEqual(self.driver.find_element(By.ID, "share-message").get_attribute("value"), "", "a message is one share's")


class RecipientTests(BrowserTests):
    """A link opened on a phone by someone with no account: the code typed as a phone types it opens the share, no
    address ever holds the code, and the page says on which service, who sent it and why, what kind of file and where
    it leads."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(server='service_name = "Acme Files"\n'), [])

    def test_a_code_typed_on_a_phone_opens_the_link_and_stays_out_of_its_address(self):
        body = json.dumps({"name": "plan.pdf", "size": 1200, "source": "https://drive.example.com/s/abc", "code": "9JURF2",
                           "sender": "Zoé Martin", "message": "The floor plan for Monday.\nPrint it on A3, please."})
        status, _, answer = self.shared.request("POST", "/share", body)
        self.assertEqual(status, 201, answer)
        link = urllib.parse.urljoin(self.shared.url + "/", json.loads(answer)["link"])
        emulate(self.driver, 390, 844)
        try:
            self.driver.get(link)
            self.assertEqual(self.driver.find_element(By.ID, "code").value_of_css_property("text-transform"), "uppercase")
            self.driver.find_element(By.ID, "code").send_keys("9jurf2", Keys.ENTER)
            self.page.wait(lambda: self.driver.find_elements(By.TAG_NAME, "h2"), message="the share, once its code is given")
            self.assertEqual(self.driver.find_element(By.TAG_NAME, "h2").text, "plan.pdf")
            self.assertNotIn("code", self.driver.current_url.lower(), "no address holds the code")
            self.assertNotIn("9jurf2", self.driver.page_source.lower(), "nor does the page")
            text = self.driver.find_element(By.TAG_NAME, "main").text
            self.assertIn("Acme Files", text)
            self.assertIn("Zoé Martin shared a file with you", text)
            self.assertIn("The floor plan for Monday.\nPrint it on A3, please.", text, "the owner's message, line by line")
            self.assertIn("PDF", text)
            self.assertIn("This file is kept on drive.example.com", text)
            self.assertNotIn("UTC", text, "times in the reader's own zone")
            self.assertEqual(axe_violations(self.driver), [])
            self.assertFalse(self.driver.execute_script("return document.documentElement.scrollWidth > innerWidth"), "no sideways scrolling")
            os.makedirs(SCREENSHOTS, exist_ok=True)
            self.driver.save_screenshot(os.path.join(SCREENSHOTS, "recipient-phone.png"))
            self.driver.refresh()
            self.page.wait(lambda: self.driver.find_elements(By.TAG_NAME, "h2"), message="a reload keeps the link open")
        finally:
            emulate(self.driver, None)


class LinkTests(BrowserTests):
    """A service that names its link pattern: the page copies the share's link."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(server='share_url = "https://files.example.org/s/{id}"\n'), history()[:3])

    def test_copy_link_copies_the_services_link_to_the_share(self):
        self.driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        self.page.open()
        self.page.open_menu("WEB0002")
        self.page.choose("Copy link")
        self.page.wait(lambda: self.driver.find_element(By.ID, "toast-text").text == "Copied https://files.example.org/s/WEB0002")
        copied = self.driver.execute_async_script("navigator.clipboard.readText().then(arguments[0], (e) => arguments[0](String(e)))")
        self.assertEqual(copied, "https://files.example.org/s/WEB0002")


class LinkStateTests(BrowserTests):
    """Shares with links: each row says at a glance whether its link opens, until when, and how often it was used; the
    list filters by a link's state and sorts by downloads."""

    @classmethod
    def setUpClass(cls):
        soon = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 3 * 86400 + 3600))
        drive = "https://drive.example.com/s/abc"
        records = [
            {"id": "LINK0001", "name": "open.pdf", "size": 10, "createdAt": "2021-03-01T08:00:00Z", "source": drive,
             "expiresAt": soon, "maxDownloads": 5, "downloads": 2},
            {"id": "LINK0002", "name": "used up.pdf", "size": 10, "createdAt": "2021-03-02T08:00:00Z", "source": drive,
             "maxDownloads": 1, "downloads": 1},
            {"id": "LINK0003", "name": "cut off.pdf", "size": 10, "createdAt": "2021-03-03T08:00:00Z", "source": drive, "state": "revoked"},
            {"id": "LINK0004", "name": "no link.pdf", "size": 10, "createdAt": "2021-03-04T08:00:00Z"},
        ]
        cls.open_browser(Shared(), records)

    def test_each_row_says_whether_its_link_opens(self):
        self.page.open()
        self.page.wait(lambda: "LINK0001" in self.page.ids())

        def words(share_id):
            found = self.driver.find_elements(By.CSS_SELECTOR, f'.row[data-id="{share_id}"] .meta .link')
            return found[0].text if found else ""
        self.assertEqual(words("LINK0001"), "expires in 3 days · 2 of 5 downloads")
        self.assertEqual(words("LINK0002"), "Closed: its one download used", "which limit closed it")
        self.assertEqual(words("LINK0003"), "Sharing stopped")
        self.assertEqual(words("LINK0004"), "", "a share without a link says nothing of one")
        closed = self.driver.find_element(By.CSS_SELECTOR, '.row[data-id="LINK0003"] .meta .link')
        self.assertIn("closed", closed.get_attribute("class"))
        self.assertEqual(axe_violations(self.driver), [])

    def test_the_link_filter_lists_only_shares_in_that_state_and_the_view_keeps_it(self):
        self.page.open()
        Select(self.driver.find_element(By.ID, "state")).select_by_value("expired")
        self.page.wait(lambda: self.page.ids() == ["LINK0002"], message="only the used-up link")
        self.assertIn("state=expired", self.driver.current_url)
        Select(self.driver.find_element(By.ID, "state")).select_by_value("active")
        self.page.wait(lambda: self.page.ids() == ["LINK0001"], message="only the link that opens")
        self.page.open("?state=revoked")
        self.assertEqual(self.page.ids(), ["LINK0003"], "the view is the page's URL")

    def test_sorting_by_downloads_puts_the_most_downloaded_first(self):
        self.page.open()
        Select(self.driver.find_element(By.ID, "sort")).select_by_value("downloads")
        self.page.wait(lambda: self.page.ids()[:2] == ["LINK0001", "LINK0002"], message="two downloads, then one")
        self.assertEqual(self.driver.find_element(By.ID, "order").text, "Most downloaded first")
