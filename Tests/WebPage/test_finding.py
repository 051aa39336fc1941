"""Finding shares on the page: the list, its pages, search, dates, types, sorts, folders and the storage line."""
import json
import os

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from servers import ROOT, Shared
from webpage import BrowserTests, history


class FindingTests(BrowserTests):
    """The page at the root of a server with no token, used to find shares."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), history())

    def setUp(self):
        self.page.open()

    def test_the_list_shows_the_newest_hundred_with_icon_size_time_and_id(self):
        rows = self.page.rows()
        self.assertEqual(len(rows), 100, "a page of 100, never everything at once")
        self.assertEqual(rows[0].get_attribute("data-id"), "WEB0249", "newest first")
        first = rows[0]
        self.assertEqual(len(first.find_elements(By.CSS_SELECTOR, "svg.icon")), 1, "every row has its type icon")
        meta = first.find_element(By.CSS_SELECTOR, ".meta").text
        self.assertIn("308.5 kB", meta, "sizes in 1000-based units")
        self.assertIn("Share id: WEB0249", meta)
        zone = self.driver.find_element(By.ID, "zone").text
        self.assertTrue(zone, "the page says which zone its dates are in")

    def test_a_pictures_row_shows_its_thumbnail_in_the_icons_box(self):
        with open(os.path.join(ROOT, "Tests", "Fixtures", "pictures", "photo.jpg"), "rb") as picture:
            status, _, body = self.shared.request("PUT", "/share/WEB0242/thumbnail", picture.read(), "image/jpeg")
        self.assertEqual(status, 200, body)
        self.page.open()
        image = lambda: self.page.row("WEB0242").find_element(By.CSS_SELECTOR, ".picture img")
        self.page.wait(lambda: self.driver.execute_script("return arguments[0].complete && arguments[0].naturalHeight", image()) == 192,
                       message="the thumbnail (144 × 192, the photo upright) shows in its row")
        box = self.page.row("WEB0242").find_element(By.CSS_SELECTOR, ".picture").size
        self.assertEqual((box["width"], box["height"]), (40, 40), "the icon's box: nothing moves when the picture arrives")
        self.assertEqual(len(self.page.row("WEB0241").find_elements(By.CSS_SELECTOR, ".picture svg.icon")), 1,
                         "a share without a thumbnail keeps its icon")

    def test_scrolling_loads_the_next_pages_by_their_link(self):
        seen = set()

        def scrolled_to_the_oldest():
            self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
            ids = self.page.ids()
            self.assertEqual(len(ids), len(set(ids)), "each share once")
            seen.update(ids)
            return ids[-1] == "WEB0000"
        self.page.wait(scrolled_to_the_oldest, message="the oldest share after scrolling")
        self.assertGreater(len(seen), 200, "pages were loaded one after the other")

    def test_search_finds_every_word_in_any_order_marks_them_and_is_debounced(self):
        self.record_requests()
        field = self.driver.find_element(By.ID, "q")
        # Nine keystrokes in one go, as a fast typist's arrive: however slow the machine, no pause falls between them.
        self.driver.execute_script("""
            const field = document.getElementById("q");
            for (let end = 1; end <= arguments[0].length; end++) {
              field.value = arguments[0].slice(0, end);
              field.dispatchEvent(new Event("input", { bubbles: true }));
            }""", "24 report")
        self.page.wait(lambda: "q=24+report" in self.driver.current_url, message="the search after typing stops")
        self.page.wait_loaded()
        self.assertEqual(self.listings(), ["share?q=24+report&tz=UTC"], "nine keystrokes, one request, once typing stops")
        names = self.page.names()
        self.assertTrue(names and all("report" in name and "24" in name for name in names), names)
        self.assertIn("report 24.mp3", names, "the words in any order")
        marks = self.driver.execute_script(
            "return [...document.querySelectorAll('#list li.row')][0].querySelectorAll('.name mark').length")
        self.assertEqual(marks, 2, "each word is marked in the name")
        field.clear()
        field.send_keys('"24 report"')
        self.page.wait(lambda: "q=%2224+report%22" in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(self.page.names(), [], "a phrase in quotes is literal")
        self.driver.refresh()
        self.page.wait_loaded()
        self.assertEqual(self.driver.find_element(By.ID, "q").get_attribute("value"), '"24 report"', "the search is in the URL")

    def apply_dates(self, start, end=""):
        self.page.set_date("from", start)
        self.page.set_date("to", end)
        self.driver.find_element(By.ID, "apply-dates").click()

    def test_a_day_and_a_range_are_one_control_in_the_browsers_zone(self):
        self.apply_dates("2021-03-01")
        self.page.wait(lambda: "date=2021-03-01" in self.driver.current_url, message="a first day alone is that day")
        self.page.wait_loaded()
        times = [row.find_element(By.CSS_SELECTOR, ".time").text for row in self.page.rows()]
        self.assertTrue(times and all(time_.startswith("2021-03-01") for time_ in times), times)
        self.apply_dates("2021-02-01", "2021-02-03")
        self.page.wait(lambda: "to=2021-02-03" in self.driver.current_url and "from=2021-02-01" in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(len(self.page.rows()), 3)
        self.assertEqual(self.driver.find_element(By.ID, "from").get_attribute("value"), "2021-02-01", "nothing cleared the other end")

    def test_a_range_applies_once_both_ends_are_chosen_and_a_month_at_once(self):
        self.record_requests()
        before = self.driver.execute_script("return history.length")
        field = self.driver.find_element(By.ID, "from")
        # Focused from the start, as Tab leaves it: on its first part, the month.
        self.driver.execute_script("arguments[0].focus()", field)
        for key in "03012021":
            field.send_keys(key)
        self.page.set_date("to", "2021-03-05")
        self.assertEqual(self.listings(), [], "nothing is applied before the range is chosen")
        self.driver.find_element(By.ID, "apply-dates").click()
        self.page.wait(lambda: "from=2021-03-01&to=2021-03-05" in self.driver.current_url, message="the range is applied")
        self.page.wait_loaded()
        self.assertEqual(len(self.listings()), 1, self.listings())
        self.assertEqual(len(self.page.rows()), 7, "five days of one share each, and two shares of 1 and 2 March")
        self.assertEqual(self.driver.execute_script("return history.length"), before + 1, "one history entry for one change")
        self.page.set_date("month", "2021-02")
        self.page.wait(lambda: "from=2021-02-01&to=2021-02-28" in self.driver.current_url, message="a month is picked at once")
        self.page.wait_loaded()
        self.assertEqual(len(self.page.rows()), 28)

    def test_a_backwards_range_says_what_is_wrong(self):
        self.apply_dates("2021-03-05", "2021-03-01")
        error = self.driver.find_element(By.ID, "date-error")
        self.page.wait(lambda: error.is_displayed(), message="the backwards range is named")
        self.assertIn("after", error.text)
        self.assertNotIn("to=", self.driver.current_url, "and not applied")

    def test_presets_filter_by_today_seven_days_month_and_year(self):
        status, _, body = self.shared.request("POST", "/share", json.dumps({"name": "today.pdf", "size": 5}))
        self.assertEqual(status, 201, body)
        today_id = json.loads(body)["id"]
        self.addCleanup(self.shared.request, "DELETE", f"/share/{today_id}?purge=true")
        for label, when in (("Today", "today"), ("Last 7 days", "7d"), ("This month", "month"), ("This year", "year")):
            self.page.open()
            chip = self.driver.find_element(By.XPATH, f'//div[@id="presets"]/button[text()="{label}"]')
            chip.click()
            self.page.wait(lambda: f"when={when}" in self.driver.current_url, message=label)
            self.page.wait_loaded()
            self.assertEqual(self.page.ids(), [today_id], f"{label}: only today's share")
            self.assertEqual(self.driver.find_element(By.XPATH, f'//div[@id="presets"]/button[text()="{label}"]').get_attribute("aria-pressed"), "true")

    def record_requests(self):
        self.driver.execute_script(
            "window.sent = []; const send = window.fetch;"
            "window.fetch = (url, options) => { window.sent.push(String(url)); return send(url, options); };")

    def listings(self):
        return [url for url in self.driver.execute_script("return window.sent") if "share?" in url and "stats" not in url]

    def test_type_filter_and_sort_toggle(self):
        Select(self.driver.find_element(By.ID, "type")).select_by_value("pdf")
        self.page.wait(lambda: "type=pdf" in self.driver.current_url)
        self.page.wait_loaded()
        self.assertTrue(all(name.endswith(".pdf") for name in self.page.names()))
        self.driver.find_element(By.ID, "order").click()
        self.page.wait(lambda: "order=asc" in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(self.page.names()[0], "report 0.pdf", "oldest first")
        self.driver.back()
        self.page.wait(lambda: "order=asc" not in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(self.page.names()[0], "report 240.pdf", "back gives the previous view")

    def test_folders_have_breadcrumbs(self):
        self.page.open("?folder=%2Fprojects%2Falpha")
        crumbs = self.driver.find_element(By.ID, "crumbs").text
        self.assertIn("projects", crumbs)
        self.assertIn("alpha", crumbs)
        self.assertEqual(len(self.page.rows()), 50)
        self.driver.find_element(By.LINK_TEXT, "All folders").click()
        self.page.wait(lambda: "folder" not in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(len(self.page.rows()), 100)

    def test_sorting_by_name_starts_a_to_z_and_by_size_largest_first(self):
        self.page.open()
        sort = lambda: Select(self.driver.find_element(By.ID, "sort"))
        sort().select_by_value("name")
        self.page.wait(lambda: "sort=name" in self.driver.current_url and "order=asc" in self.driver.current_url)
        self.page.wait_loaded()
        names = self.page.names()
        self.assertEqual(names, sorted(names, key=str.lower), "A to Z")
        sort().select_by_value("size")
        self.page.wait(lambda: "sort=size" in self.driver.current_url and "order=asc" not in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(self.driver.find_element(By.ID, "order").text, "Largest first")
        sort().select_by_value("createdAt")
        self.page.wait(lambda: "sort=" not in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(self.driver.find_element(By.ID, "order").text, "Newest first")

    def test_folders_show_above_the_rows_as_real_links_and_a_new_view_starts_at_the_top(self):
        link = self.driver.find_element(By.CSS_SELECTOR, "#folders a")
        self.assertIn("projects", link.text)
        self.assertIn("50 shares", link.text, "with the shares in it and below it")
        self.assertTrue(link.get_attribute("href").endswith("?folder=%2Fprojects"), "a real link, to open in a new tab")
        self.driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        self.page.wait(lambda: self.driver.execute_script("return scrollY") > 0)
        self.page.click(lambda: self.driver.find_element(By.CSS_SELECTOR, "#list a.folder"), "a row's folder link")
        self.page.wait(lambda: "folder=%2Fprojects%2Falpha" in self.driver.current_url)
        self.page.wait_loaded()
        self.assertEqual(self.driver.execute_script("return scrollY"), 0, "the new list from its top")
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "#list a.folder"), [], "rows do not repeat the folder shown")
        self.driver.find_element(By.LINK_TEXT, "projects").click()
        self.page.wait(lambda: self.driver.current_url.endswith("?folder=%2Fprojects"))
        self.page.wait_loaded()
        self.assertEqual([a.text.split("\n")[0] for a in self.driver.find_elements(By.CSS_SELECTOR, "#folders a")], ["alpha"])

    def test_the_storage_bar_has_a_legend_in_distinct_colours(self):
        legend = lambda: self.driver.find_elements(By.CSS_SELECTOR, "#storage-legend li")
        self.page.wait(lambda: len(legend()) == 10, message="one entry per type")
        colours = {item.find_element(By.CSS_SELECTOR, ".swatch").value_of_css_property("background-color") for item in legend()}
        self.assertEqual(len(colours), 10, "no two types share a colour")
        self.assertIn("Spreadsheet", " ".join(item.text for item in legend()))

    def test_the_whole_historys_use_is_in_the_header_and_a_filter_says_what_matches(self):
        self.page.open("?type=pdf")
        usage = lambda: self.driver.find_element(By.ID, "usage-text").text
        used = json.loads(self.shared.request("GET", "/share/stats?by=none")[2])["bytes"]
        self.page.wait(lambda: usage() == f"{used / 1e6:.1f} MB used", message=f"the whole history's use: {usage()}")
        self.assertLess(self.driver.find_element(By.ID, "usage").rect["y"], 80, "at the top of the page")
        match = self.driver.find_element(By.ID, "match").text
        pdf = json.loads(self.shared.request("GET", "/share/stats?type=pdf&by=none")[2])
        self.assertEqual(match, f"{pdf['count']} shares · {pdf['bytes'] / 1e6:.1f} MB match", "the filter's count and bytes, said to be the filter's")

    def test_opening_a_folder_keeps_the_filters_and_says_its_counts_are_of_everything(self):
        self.page.open("?q=report&type=pdf")
        link = self.driver.find_element(By.CSS_SELECTOR, '#folders a[href$="folder=%2Fprojects"]')
        self.assertIn("?q=report&type=pdf&folder=%2Fprojects", link.get_attribute("href"), "the folder's link keeps the filters")
        link.click()
        self.page.wait(lambda: "folder=%2Fprojects" in self.driver.current_url, message="the folder opens")
        self.page.wait_loaded()
        self.assertIn("q=report", self.driver.current_url)
        self.assertIn("type=pdf", self.driver.current_url)
        names = self.page.names()
        self.assertTrue(names and all(name.startswith("report") and name.endswith(".pdf") for name in names), names)
        self.page.open("?q=report")
        label = self.driver.find_element(By.ID, "folders").get_attribute("aria-label")
        self.assertIn("counts of all their shares", label)
        self.assertIn("in all", self.driver.find_element(By.CSS_SELECTOR, "#folders .folder-totals").text)


class EmptyHistoryTests(BrowserTests):
    """A history with nothing in it yet."""

    @classmethod
    def setUpClass(cls):
        cls.open_browser(Shared(), [])

    def test_an_empty_history_says_so_and_how_to_add_a_share(self):
        self.page.open()
        status = self.driver.find_element(By.ID, "status").text
        self.assertIn("Nothing has been shared yet", status)
        self.assertIn("share add", status)
        self.page.open("?q=zzz")
        self.assertEqual(self.driver.find_element(By.ID, "status").text, "No shares match.")
