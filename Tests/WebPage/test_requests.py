"""File requests from both sides: the owner makes one in the *Request files* dialog (from the account screen) and
copies its link; someone with
no account opens it on a phone, types its code, picks files and watches them go, a break waited out; what they send
lands in the owner's folder, and nobody sees what others sent."""
import json
import os
import tempfile
import urllib.error
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from servers import Shared
from webpage import SCREENSHOTS, BrowserTests, axe_violations, emulate


class RequestTests(BrowserTests):
    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(server='service_name = "Acme Files"\nshutdown_seconds = 1\n'), [])
        cls.scratch = tempfile.mkdtemp(prefix="share-requests-")

    def setUp(self):
        self.network(-1)

    def network(self, bytes_per_second):
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                                    {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": bytes_per_second})

    def file(self, name, size):
        path = os.path.join(self.scratch, name)
        with open(path, "wb") as file:
            file.write(os.urandom(size))
        return path

    def make_request(self, **fields):
        status, _, body = self.shared.request("POST", "/requests", json.dumps(fields))
        self.assertEqual(status, 201, body)
        made = json.loads(body)
        return made, urllib.parse.urljoin(self.shared.url + "/", made["link"])

    def shares_in(self, folder):
        _, _, body = self.shared.request("GET", "/share?" + urllib.parse.urlencode({"folder": folder}))
        return {record["name"]: record for record in json.loads(body)}

    def pick(self, *paths):
        field = self.driver.find_element(By.ID, "pick")
        self.driver.execute_script("arguments[0].className = ''", field)
        field.send_keys("\n".join(paths))
        self.driver.execute_script("arguments[0].className = 'pick'", field)

    def states(self):
        return [item.text for item in self.driver.find_elements(By.CSS_SELECTOR, "#sent .state")]

    def same_bytes(self, record, path):
        link = urllib.parse.urljoin(self.shared.url + "/", record["link"])
        with urllib.request.urlopen(link + "/file", timeout=30) as response, open(path, "rb") as original:
            return response.read() == original.read()

    def test_the_owner_makes_a_request_in_its_dialog_and_copies_its_link(self):
        self.page.open("?folder=%2Ftaxes")
        self.page.click(lambda: self.driver.find_element(By.ID, "account-button"))
        self.page.click(lambda: self.driver.find_element(By.ID, "personal-requests"), "Request files… in the account screen")
        self.page.wait(lambda: self.driver.find_element(By.ID, "requests").get_attribute("open") is not None, message="the dialog")
        self.assertEqual(self.driver.find_element(By.ID, "request-folder").get_attribute("value"), "/taxes", "the folder shown")
        self.driver.find_element(By.ID, "request-name").send_keys("Tax papers 2026")
        self.driver.find_element(By.ID, "request-max-files").send_keys("3")
        self.driver.find_element(By.ID, "request-code").click()
        self.driver.find_element(By.CSS_SELECTOR, "#request-form button[type=submit]").click()
        self.page.wait(lambda: self.driver.find_element(By.ID, "request-made").is_displayed(), message="the link made")
        link = self.driver.find_element(By.ID, "request-link").get_attribute("value")
        self.assertTrue(link.startswith(self.shared.url + "/r/"), link)
        _, _, body = self.shared.request("GET", "/requests")
        made = json.loads(body)[0]
        self.assertEqual((made["title"], made["folder"], made["maxFiles"], made["state"]), ("Tax papers 2026", "/taxes", 3, "open"))
        self.assertEqual(self.driver.find_element(By.ID, "request-code-text").text, made["code"], "its code, to send with the link")
        self.assertIn("0 of 3 files · into /taxes · open until", self.driver.find_element(By.CSS_SELECTOR, "#request-list .hook-state").text)
        self.assertEqual(axe_violations(self.driver), [])
        os.makedirs(SCREENSHOTS, exist_ok=True)
        for name, width, height in (("desktop", 1366, 900), ("phone", 390, 844)):
            emulate(self.driver, width, height)
            try:
                self.assertEqual(axe_violations(self.driver), [])
                self.driver.save_screenshot(os.path.join(SCREENSHOTS, f"request-dialog-{name}.png"))
            finally:
                emulate(self.driver, None)

        self.driver.find_element(By.CSS_SELECTOR, "#request-list button[aria-label^='Close']").click()
        self.page.wait(lambda: "closed" in self.driver.find_element(By.CSS_SELECTOR, "#request-list .hook-state").text, message="closed")
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(link, timeout=30)
        self.assertEqual(refused.exception.code, 410, "a closed request's link says it takes no more files")
        self.driver.find_element(By.CSS_SELECTOR, "#request-list button[aria-label^='Open again']").click()
        self.page.wait(lambda: "open until" in self.driver.find_element(By.CSS_SELECTOR, "#request-list .hook-state").text, message="open")
        self.driver.find_element(By.CSS_SELECTOR, "#requests button.close").click()
        self.assertEqual(self.page.active().get_attribute("id"), "personal-requests", "focus returns to the button")

    def test_someone_with_no_account_sends_files_from_a_phone_and_sees_nothing_of_others(self):
        made, link = self.make_request(title="Photos of the move", folder="/move", code="MOVE42", maxFiles=5)
        earlier = self.file("someone else's.txt", 100)
        with open(earlier, "rb") as body:
            request = urllib.request.Request(link + "/files/someone%20else%27s.txt?code=MOVE42", data=body.read(), method="PUT")
            with urllib.request.urlopen(request, timeout=30) as answer:
                self.assertEqual(answer.status, 201)
        first, second = self.file("kitchen.jpg", 2_000_000), self.file("hall plan.pdf", 300_000)
        emulate(self.driver, 390, 844)
        try:
            self.driver.get(link)
            self.driver.find_element(By.ID, "code").send_keys("move42", Keys.ENTER)
            self.page.wait(lambda: self.driver.find_elements(By.ID, "drop"), message="the page, once its code is given")
            text = self.driver.find_element(By.TAG_NAME, "main").text
            self.assertIn("Photos of the move", text)
            self.assertIn("Up to 4 more files", text)
            self.assertNotIn("someone else", self.driver.page_source, "nothing of what others sent")
            self.assertNotIn("move42", self.driver.current_url.lower(), "no address holds the code")
            self.assertEqual(axe_violations(self.driver), [])
            self.pick(first, second)
            self.page.wait(lambda: self.states() == ["Sent · 2.0 MB", "Sent · 300.0 kB"], 60, "both files sent")
            self.assertFalse(self.driver.execute_script("return document.documentElement.scrollWidth > innerWidth"), "no sideways scrolling")
            os.makedirs(SCREENSHOTS, exist_ok=True)
            self.driver.save_screenshot(os.path.join(SCREENSHOTS, "request-phone.png"))
        finally:
            emulate(self.driver, None)
        emulate(self.driver, 1366, 900)
        try:
            self.assertEqual(axe_violations(self.driver), [])
            self.driver.save_screenshot(os.path.join(SCREENSHOTS, "request-desktop.png"))
        finally:
            emulate(self.driver, None)
        received = self.shares_in("/move")
        self.assertEqual(set(received), {"someone else's.txt", "kitchen.jpg", "hall plan.pdf"})
        self.assertEqual({record["source"] for record in received.values()}, {"request:" + made["id"]})
        self.assertTrue(self.same_bytes(received["kitchen.jpg"], first) and self.same_bytes(received["hall plan.pdf"], second))

    def test_a_send_waits_out_a_server_gone_away_and_resumes_where_it_was(self):
        _, link = self.make_request(title="Scans", folder="/scans")
        path = self.file("contract.pdf", 5_000_000)
        self.driver.get(link)
        self.network(800_000)
        self.pick(path)
        self.page.wait(lambda: " s left" in (self.states() or [""])[0], 30, "the file under way, its rate known")
        self.shared.pause()
        try:
            self.page.wait(lambda: "trying again in" in self.states()[0], 30, "the page waiting for the server")
        finally:
            self.shared.resume()
        self.network(-1)
        self.page.wait(lambda: self.states() == ["Sent · 5.0 MB"], 90, "sent once the server came back")
        self.assertTrue(self.same_bytes(self.shares_in("/scans")["contract.pdf"], path), "the very bytes, none twice")

    def test_files_dropped_on_the_page_are_sent(self):
        _, link = self.make_request(title="Drop them here", folder="/dropped")
        self.driver.get(link)
        self.driver.execute_script("""
            const data = new DataTransfer();
            data.items.add(new File(["first note"], "note one.txt", { type: "text/plain" }));
            data.items.add(new File(["second"], "note two.txt", { type: "text/plain" }));
            for (const type of ["dragover", "drop"]) document.body.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));""")
        self.page.wait(lambda: self.states() == ["Sent · 10 B", "Sent · 6 B"], 30, "both dropped files sent")
        self.assertEqual({name: record["size"] for name, record in self.shares_in("/dropped").items()}, {"note one.txt": 10, "note two.txt": 6})

    def test_a_request_with_every_file_it_asked_for_says_so(self):
        _, link = self.make_request(title="One signed form", folder="/forms", maxFiles=1)
        request = urllib.request.Request(link + "/files/form.pdf", data=b"%PDF-1.4 signed", method="PUT")
        with urllib.request.urlopen(request, timeout=30) as answer:
            self.assertEqual(json.loads(answer.read())["name"], "form.pdf")
        self.driver.get(link)
        self.assertIn("It has all the files it asked for.", self.driver.find_element(By.TAG_NAME, "main").text)
        self.assertFalse(self.driver.find_elements(By.ID, "pick"), "nothing to send with")
